package io.servesim.config;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * Why a user's file could not be read, on one line that names the file: {@code <file>: no such file},
 * {@code <file>: is a directory}, {@code <file>: not readable}, or for a YAML/JSON syntax error
 * {@code <file>:<line>:<column>: <the parser's short message>} (from
 * {@link JsonProcessingException#getOriginalMessage()} and {@link JsonProcessingException#getLocation()},
 * without the parser's source excerpt and caret lines), or a key given twice with its path in the file.
 */
public final class ReadFailure {
    private ReadFailure() {
    }

    /** The failure to read {@code file} as one problem at the file (and line and column, for a syntax error). */
    public static ConfigException.Problem problem(IOException e, Object file) {
        if (e instanceof JsonProcessingException j) {
            if (StrictJson.isDuplicateKey(j)) {
                ConfigException.Problem p = StrictJson.duplicateKey(j, "line", "");
                JsonLocation at = j.getLocation();
                return new ConfigException.Problem(file.toString(), "duplicate key '" + p.path() + "'"
                        + (at != null && at.getLineNr() > 0 ? " at line " + at.getLineNr() : "") + "; each key may appear once in a mapping");
            }
            return new ConfigException.Problem(file + position(j), parserMessage(j));
        }
        return new ConfigException.Problem(file.toString(), reason(e));
    }

    /** {@link #problem} as one line, {@code <file>[:<line>:<column>]: <why>}. */
    public static String describe(IOException e, Object file) {
        return problem(e, file).toString();
    }

    /** {@code :<line>:<column>} of a parser failure, or nothing when the parser gave no position. */
    public static String position(JsonProcessingException e) {
        JsonLocation at = e.getLocation();
        return at == null || at.getLineNr() <= 0 ? "" : ":" + at.getLineNr() + (at.getColumnNr() > 0 ? ":" + at.getColumnNr() : "");
    }

    /**
     * The parser's own message on one line: SnakeYAML's context and problem lines ({@code while parsing a
     * flow sequence: expected ',' or ']', but got <stream end>}) without its indented excerpt, caret and
     * {@code in 'reader', line ...} lines.
     */
    public static String parserMessage(JsonProcessingException e) {
        String m = e.getOriginalMessage() == null ? "" : e.getOriginalMessage();
        // Jackson's "(start marker at [Source: REDACTED (...); line: 1, column: 5963])": the position alone
        m = m.replaceAll("\\[Source: [^;\\]]*(\\([^)]*\\))?[^;\\]]*; line: (\\d+), column: (\\d+)\\]", "line $2, column $3");
        String kept = Arrays.stream(m.split("\\R")).filter(l -> !l.isBlank() && !Character.isWhitespace(l.charAt(0)))
                .map(String::strip).collect(Collectors.joining(": "));
        return kept.isEmpty() ? "syntax error" : kept;
    }

    /** Why {@code file} cannot be read as a file ({@code no such file}, {@code is a directory}, {@code not readable}), or null. */
    public static String unreadable(Path file) {
        if (!Files.exists(file)) {
            return "no such file";
        }
        if (Files.isDirectory(file)) {
            return "is a directory";
        }
        return Files.isReadable(file) ? null : "not readable";
    }

    private static String reason(IOException e) {
        if (e instanceof NoSuchFileException) {
            return "no such file";
        }
        if (e instanceof AccessDeniedException) {
            return "not readable";
        }
        if (e instanceof java.nio.charset.CharacterCodingException) {
            return "not UTF-8 text (a binary or otherwise encoded file?)";
        }
        String m = e.getMessage() == null ? "" : e.getMessage();
        if (m.contains("Is a directory")) {
            return "is a directory";
        }
        return m.isBlank() ? "cannot be read" : m;
    }
}
