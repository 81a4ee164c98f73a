package io.servesim.cli;

import java.util.ArrayList;
import java.util.List;

/**
 * The commands of a README's {@code bash} blocks, each as its words (quotes removed, backslash continuations joined),
 * in order. Any other line in a {@code bash} block but a comment or a Maven command is refused, naming the line.
 */
final class ReadmeCommands {
    static final String LAUNCHER = "scripts/servesim";

    private ReadmeCommands() {
    }

    /** The lines of every plain code block of {@code markdown} (a fence without a language: shown output). */
    static List<List<String>> outputBlocks(String markdown) {
        List<List<String>> blocks = new ArrayList<>();
        List<String> block = null;
        boolean inOther = false;
        for (String line : markdown.split("\n", -1)) {
            boolean fence = line.strip().startsWith("```");
            if (inOther) {
                inOther = !fence;
            } else if (block != null) {
                if (fence) {
                    blocks.add(block);
                    block = null;
                } else {
                    block.add(line);
                }
            } else if (fence) {
                if (line.strip().equals("```")) {
                    block = new ArrayList<>();
                } else {
                    inOther = true;
                }
            }
        }
        return blocks;
    }

    /** {@code line} stripped, its runs of blanks made one space (output columns align by padding). */
    static String squeezed(String line) {
        return line.strip().replaceAll("\\s+", " ");
    }

    static List<List<String>> parse(String readme) {
        List<List<String>> commands = new ArrayList<>();
        String[] lines = readme.split("\n", -1);
        boolean inBash = false;
        boolean inOther = false;
        StringBuilder pending = null;
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i].strip();
            if (line.startsWith("```")) {
                if (inBash || inOther) {
                    inBash = false;
                    inOther = false;
                } else if (line.equals("```bash")) {
                    inBash = true;
                } else {
                    inOther = true;
                }
                continue;
            }
            if (!inBash) {
                continue;
            }
            String code = withoutComment(line);
            if (pending != null) {
                pending.append(' ').append(code);
            } else if (code.isEmpty()) {
                continue;
            } else if (code.startsWith(LAUNCHER + " ")) {
                pending = new StringBuilder(code);
            } else if (code.startsWith("mvn ")) {
                continue;
            } else {
                throw new IllegalArgumentException("README line " + (i + 1) + ": '" + line + "' in a bash block is neither"
                        + " a " + LAUNCHER + " command nor a Maven one: make it runnable or move it out of the block");
            }
            if (pending.toString().endsWith("\\")) {
                pending.setLength(pending.length() - 1);
            } else {
                commands.add(words(pending.toString()));
                pending = null;
            }
        }
        return commands;
    }

    /** The line without a {@code #} comment that starts outside quotes after a blank. */
    private static String withoutComment(String line) {
        char quote = 0;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (quote != 0) {
                quote = c == quote ? 0 : quote;
            } else if (c == '\'' || c == '"') {
                quote = c;
            } else if (c == '#' && (i == 0 || Character.isWhitespace(line.charAt(i - 1)))) {
                return line.substring(0, i).strip();
            }
        }
        return line.strip();
    }

    /** Splits on blanks outside quotes, as a shell does for these plain commands. */
    private static List<String> words(String command) {
        List<String> out = new ArrayList<>();
        StringBuilder word = null;
        char quote = 0;
        for (char c : command.toCharArray()) {
            if (quote != 0) {
                if (c == quote) {
                    quote = 0;
                } else {
                    word.append(c);
                }
            } else if (c == '\'' || c == '"') {
                quote = c;
                word = word == null ? new StringBuilder() : word;
            } else if (Character.isWhitespace(c)) {
                if (word != null) {
                    out.add(word.toString());
                    word = null;
                }
            } else {
                word = word == null ? new StringBuilder() : word;
                word.append(c);
            }
        }
        if (word != null) {
            out.add(word.toString());
        }
        return out;
    }
}
