package io.servesim.io;

import io.servesim.exit.ErrorReport;
import io.servesim.exit.UsageException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
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
    /** How often a write check creates a folder that another writer's check removed meanwhile. */
    private static final int WRITE_CHECK_ATTEMPTS = 5;

    private OutputPath() {
    }

    /** Checks that {@code file}, named by {@code flag}, can be written as a file. */
    /**
     * Where {@code path} really is: absolute, with every symbolic link among its existing folders (or itself) resolved,
     * the parts that do not exist yet appended as given. Checks of where an output lands (inside another job's folder,
     * inside a dataset) compare this, so a link cannot take an output where the check would have refused it.
     */
    public static Path real(Path path) {
        Path abs = path.toAbsolutePath().normalize();
        Path existing = abs;
        while (existing != null && !Files.exists(existing)) {
            existing = existing.getParent();
        }
        if (existing == null) {
            return abs;
        }
        try {
            return existing.toRealPath().resolve(existing.relativize(abs)).normalize();
        } catch (IOException e) {
            return abs;
        }
    }

    public static void checkFile(String flag, Path file) {
        if (Files.isDirectory(file)) {
            throw new UsageException(flag + " " + file + ": is a directory; give a file path");
        }
        checkWritable(flag, file);
    }

    /** Checks that {@code dir}, named by {@code flag}, can be used (or created) as a directory to write into. */
    public static void checkDirectory(String flag, Path dir) {
        refuseLinkToNothing(flag + " " + dir, dir);
        if (Files.exists(dir) && !Files.isDirectory(dir)) {
            throw new UsageException(flag + " " + dir + ": is not a directory");
        }
        checkWritable(flag, dir);
    }

    /**
     * {@link #checkFile}, then proves that {@code file}'s directory takes a new file by creating and removing one
     * there: a read-only or virtual file system, or permissions {@link Files#isWritable} does not see (root),
     * fail now rather than after the work. Directories it had to create are removed again.
     */
    public static void probeFile(String flag, Path file) {
        checkFile(flag, file);
        Path parent = file.toAbsolutePath().normalize().getParent();
        if (parent != null) {
            probe(flag, file, parent);
        }
    }

    /** {@link #checkDirectory}, then proves {@code dir} takes a new file as {@link #probeFile} does. */
    public static void probeDirectory(String flag, Path dir) {
        checkDirectory(flag, dir);
        probe(flag, dir, dir.toAbsolutePath().normalize());
    }

    private static void probe(String flag, Path named, Path dir) {
        // what exists is never removed, a symbolic link (to nothing) included: only folders this check creates
        Path firstCreated = dir;
        while (firstCreated.getParent() != null && !Files.exists(firstCreated.getParent(), LinkOption.NOFOLLOW_LINKS)) {
            firstCreated = firstCreated.getParent();
        }
        boolean creates = !Files.exists(dir, LinkOption.NOFOLLOW_LINKS);
        try {
            writeCheck(dir);
        } catch (IOException e) {
            throw new UsageException(flag + " " + named + ": cannot write there: " + ErrorReport.cause(e));
        } finally {
            if (creates) {
                for (Path d = dir; d != null && d.startsWith(firstCreated); d = d.getParent()) {
                    try {
                        Files.deleteIfExists(d);
                    } catch (IOException e) {
                        break; // left as an empty directory the command would have created anyway
                    }
                }
            }
        }
    }

    /**
     * Creates {@code dir} and a file in it, then deletes the file. Another servesim probing the same new folder at once
     * deletes the folder it created after its own check, which may fall between this one's creating the folder and
     * writing in it: a folder that vanished is created again, a few times, before the check fails.
     */
    private static void writeCheck(Path dir) throws IOException {
        for (int attempt = 1; ; attempt++) {
            try {
                Files.createDirectories(dir);
                Files.delete(Files.createTempFile(dir, ".servesim-write-check", ".tmp"));
                return;
            } catch (java.nio.file.NoSuchFileException vanished) {
                if (attempt == WRITE_CHECK_ATTEMPTS) {
                    throw vanished;
                }
            }
        }
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

    /**
     * Refuses {@code dir}, an output folder ({@code named}: the flag and path, as a message starts), when it is a
     * symbolic link to nothing: servesim would have to create the link's target or replace the link.
     */
    public static void refuseLinkToNothing(String named, Path dir) {
        if (Files.isSymbolicLink(dir) && !Files.exists(dir)) {
            throw new UsageException(named + ": a symbolic link to nothing (" + linkTarget(dir) + "), not a directory;"
                    + " servesim neither creates its target nor replaces a link it did not write: give another path, or"
                    + " create the folder it points to");
        }
    }

    private static String linkTarget(Path link) {
        try {
            return Files.readSymbolicLink(link).toString();
        } catch (IOException e) {
            return "unreadable";
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
