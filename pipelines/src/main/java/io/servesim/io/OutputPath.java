package io.servesim.io;

import io.servesim.exit.UsageException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * Checks an output path named by a flag before a command does any work, so a long replay, fit or run never
 * ends in "cannot write": the path must not be an existing directory (for a file) or an existing file (for a
 * directory), an existing path must be writable, and its nearest existing ancestor must be a writable
 * directory (missing directories are created when writing). An existing file named explicitly is replaced,
 * as usual for a command-line output. Each failure is a {@link UsageException} naming the flag and the path.
 */
public final class OutputPath {
    private OutputPath() {
    }

    /** Checks that {@code file}, named by {@code flag}, can be written as a file. */
    public static void checkFile(String flag, Path file) {
        if (Files.isDirectory(file)) {
            throw new UsageException(flag + " " + file + ": is a directory; give a file path");
        }
        checkWritable(flag, file);
    }

    /** Checks that {@code dir}, named by {@code flag}, can be used (or created) as a directory to write into. */
    public static void checkDirectory(String flag, Path dir) {
        if (Files.exists(dir) && !Files.isDirectory(dir)) {
            throw new UsageException(flag + " " + dir + ": is not a directory");
        }
        checkWritable(flag, dir);
    }

    /**
     * Checks that no two of a command's output files (flag -> path, null paths skipped) are the same file: each
     * would be written over the other, and only the last one written would survive.
     */
    public static void checkDistinct(Map<String, Path> filesByFlag) {
        Map<Path, String> seen = new HashMap<>();
        for (Map.Entry<String, Path> e : filesByFlag.entrySet()) {
            if (e.getValue() == null) {
                continue;
            }
            String other = seen.putIfAbsent(e.getValue().toAbsolutePath().normalize(), e.getKey());
            if (other != null) {
                throw new UsageException(e.getKey() + " " + e.getValue() + ": the same file as " + other
                        + "; each output needs a file of its own");
            }
        }
    }

    private static void checkWritable(String flag, Path path) {
        if (Files.exists(path)) {
            if (!Files.isWritable(path)) {
                throw new UsageException(flag + " " + path + ": not writable");
            }
            return;
        }
        Path ancestor = path.toAbsolutePath().normalize().getParent();
        while (ancestor != null && !Files.exists(ancestor)) {
            ancestor = ancestor.getParent();
        }
        if (ancestor == null) {
            throw new UsageException(flag + " " + path + ": no existing parent directory");
        }
        if (!Files.isDirectory(ancestor)) {
            throw new UsageException(flag + " " + path + ": " + ancestor + " is not a directory");
        }
        if (!Files.isWritable(ancestor)) {
            throw new UsageException(flag + " " + path + ": directory " + ancestor + " is not writable");
        }
    }
}
