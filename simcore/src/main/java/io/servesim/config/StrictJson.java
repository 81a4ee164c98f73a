package io.servesim.config;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonStreamContext;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.exc.StreamReadException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;

/**
 * The YAML and JSON readers of every user input (configs, workload files, overrides, model
 * {@code config.json}, coefficient files, traces). A key given twice in one mapping is an error
 * ({@link StreamReadFeature#STRICT_DUPLICATE_DETECTION}) instead of the last value silently
 * winning; {@link #duplicateKey} turns the parser's failure into a {@link ConfigException.Problem} that
 * names the key's path inside the document ({@code workload.clients[1].id}), the file and the line.
 */
public final class StrictJson {
    private static final ObjectMapper YAML = YAMLMapper.builder().enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION).build();
    private static final ObjectMapper JSON = JsonMapper.builder().enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION).build();

    private StrictJson() {
    }

    /** The strict YAML reader (thread-safe, shared). */
    public static ObjectMapper yaml() {
        return YAML;
    }

    /** The strict JSON reader (thread-safe, shared). */
    public static ObjectMapper json() {
        return JSON;
    }

    /** Whether {@code e} is a key given twice in one mapping. */
    public static boolean isDuplicateKey(JsonProcessingException e) {
        return e.getOriginalMessage() != null && e.getOriginalMessage().startsWith("Duplicate field");
    }

    /**
     * The problem of a key given twice in {@code source} (a file, or {@code --set path=...}): at the
     * key's path ({@code prefix} before it), naming the source and the line.
     */
    public static ConfigException.Problem duplicateKey(JsonProcessingException e, String source, String prefix) {
        String inner = e instanceof StreamReadException s && s.getProcessor() != null ? pathOf(s.getProcessor()) : "";
        String path = prefix.isEmpty() ? inner : inner.isEmpty() ? prefix : inner.startsWith("[") ? prefix + inner
                : prefix + "." + inner;
        JsonLocation at = e.getLocation();
        String where = source + (at != null && at.getLineNr() > 0 ? " line " + at.getLineNr() : "");
        return new ConfigException.Problem(path, "duplicate key (" + where + "); each key may appear once in a mapping");
    }

    /** The dotted path ({@code a.b[2].c}) of the key or element {@code parser} is at. */
    private static String pathOf(JsonParser parser) {
        Deque<String> parts = new ArrayDeque<>();
        for (JsonStreamContext c = parser.getParsingContext(); c != null && !c.inRoot(); c = c.getParent()) {
            if (c.inArray()) {
                parts.push("[" + Math.max(0, c.getCurrentIndex()) + "]");
            } else if (c.getCurrentName() != null) {
                parts.push("." + c.getCurrentName());
            }
        }
        String joined = String.join("", parts);
        return joined.startsWith(".") ? joined.substring(1) : joined;
    }

    /** Parses a YAML file into a mutable tree (an empty mapping for an empty file). */
    public static ObjectNode readMapping(Path file) {
        try {
            JsonNode n = yaml().readTree(Files.readString(file));
            if (n == null || n.isMissingNode() || n.isNull()) {
                return yaml().createObjectNode();
            }
            if (!(n instanceof ObjectNode obj)) {
                throw new ConfigException(file.toString(), "must be a YAML mapping (key: value lines at the top), got "
                        + (n.isArray() ? "a list" : "a single value"));
            }
            return obj;
        } catch (JsonProcessingException e) {
            if (isDuplicateKey(e)) {
                throw new ConfigException(List.of(duplicateKey(e, file.toString(), "")));
            }
            throw new ConfigException(List.of(ReadFailure.problem(e, file)));
        } catch (java.nio.charset.CharacterCodingException e) {
            throw new ConfigException(file.toString(), "not a UTF-8 text YAML file (it holds bytes that are not UTF-8"
                    + " text: a binary or otherwise encoded file?)");
        } catch (IOException e) {
            throw new ConfigException(List.of(ReadFailure.problem(e, file)));
        }
    }
}
