package io.servesim.io;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.servesim.exit.ErrorReport;
import io.servesim.exit.UsageException;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.stream.Stream;

/**
 * One writer at a time per output folder: an exclusive lock ({@link FileChannel#tryLock()}, an {@code fcntl} lock the
 * operating system releases when the holder dies) on {@code _LOCK} in the folder, which holds who took it (process id,
 * host, start time, command) while it is held. A second writer fails at once naming the holder, instead of both writing
 * the same rows (two sweeps started 0.1 s apart into one folder once committed every row twice).
 *
 * <p>The file is never deleted while the folder is in use (a writer that deleted it would let a second one lock the
 * unlinked file while a third locks a new one): the holder empties it before releasing the lock. A {@code _LOCK} that is
 * free to lock but not empty was left by a holder that died ({@code kill -9}, a crash): the next writer reports whose
 * it was and that the holder is gone, then takes the folder over; nothing is taken silently. While the lock is held,
 * nothing in this process may open the file by its path: closing any descriptor of it would release the process's
 * {@code fcntl} lock.
 */
public final class OutputLock implements AutoCloseable {
    /** The lock file's name in the output folder. */
    public static final String FILE = "_LOCK";
    private static final ObjectMapper JSON = new ObjectMapper();

    private final FileChannel channel;
    private final FileLock lock;
    private boolean released;

    private OutputLock(FileChannel channel, FileLock lock) {
        this.channel = channel;
        this.lock = lock;
    }

    /**
     * Takes {@code dir}'s lock for {@code command} (creating {@code dir} if needed), or throws a
     * {@link UsageException} naming the writer that holds it. A lock its holder left behind is reported on
     * {@code err} and taken over.
     */
    public static OutputLock acquire(Path dir, String command, PrintStream err) throws IOException {
        Files.createDirectories(dir);
        Path file = dir.resolve(FILE);
        refuseLink(file);
        FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ,
                StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS);
        FileLock lock;
        try {
            lock = channel.tryLock();
        } catch (OverlappingFileLockException sameProcess) {
            lock = null;
        }
        if (lock == null) {
            String holder = read(channel);
            channel.close();
            throw held(dir, file, holder);
        }
        String left = read(channel);
        if (!left.isBlank() && !ours(left)) {
            lock.release();
            channel.close();
            throw notOurs(file);
        }
        if (!left.isBlank()) {
            err.println("servesim: note: " + file + " was left by a writer that is no longer running (" + describe(left)
                    + "; killed or crashed?); this one takes " + dir + " over");
        }
        write(channel, holder(command));
        return new OutputLock(channel, lock);
    }

    /**
     * {@link #acquire} for a writer of {@code noun} ("sweep", "plan"), a failure to create or lock the folder refused as a
     * usage error naming it.
     */
    public static OutputLock take(Path dir, String command, PrintStream err, String noun) {
        try {
            return acquire(dir, command, err);
        } catch (IOException e) {
            throw new UsageException("cannot write the " + noun + " output " + dir + ": " + ErrorReport.describe(e));
        }
    }

    /**
     * Removes {@code dir} if it holds nothing but its (released) lock file: a folder a writer made and never used, as
     * when it was refused before it wrote anything. Otherwise, or if that fails, the folder stays (nothing is lost).
     */
    public static void removeUnusedFolder(Path dir) {
        try (Stream<Path> s = Files.list(dir)) {
            if (s.allMatch(p -> p.getFileName().toString().equals(FILE))) {
                Files.deleteIfExists(dir.resolve(FILE));
                Files.delete(dir);
            }
        } catch (IOException e) {
            // it stays: an unused folder loses nothing
        }
    }

    /**
     * Refuses, naming the holder, when another writer holds {@code dir}'s lock; creates nothing (a folder without a
     * {@code _LOCK} is not held). For a check before anything else, so that a writer refused for another reason
     * leaves no lock file behind; {@link #acquire} still decides.
     */
    public static void refuseIfHeld(Path dir) throws IOException {
        Path file = dir.resolve(FILE);
        refuseLink(file);
        if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE,
                LinkOption.NOFOLLOW_LINKS)) {
            FileLock probe;
            try {
                probe = channel.tryLock();
            } catch (OverlappingFileLockException sameProcess) {
                probe = null;
            }
            if (probe == null) {
                throw held(dir, file, read(channel));
            }
            String content = read(channel);
            probe.release();
            if (!content.isBlank() && !ours(content)) {
                throw notOurs(file);
            }
        }
    }

    /** Refuses a {@code _LOCK} that is a symbolic link: writing it would empty the file it points to. */
    private static void refuseLink(Path file) {
        if (Files.isSymbolicLink(file)) {
            throw new UsageException(file + " is a symbolic link, not a lock servesim wrote (it would empty the file the link"
                    + " points to); move it away, or choose another --output");
        }
    }

    /** Whether a lock file's content is a servesim writer's record ({@link #holder}). */
    private static boolean ours(String content) {
        try {
            JsonNode n = JSON.readTree(content);
            return n != null && "servesim".equals(n.path("written_by").asText());
        } catch (IOException e) {
            return false;
        }
    }

    private static UsageException notOurs(Path file) {
        return new UsageException(file + " holds something servesim did not write (its lock holds who writes the folder)"
                + " and would be emptied; move it away, or choose another --output");
    }

    private static UsageException held(Path dir, Path file, String content) {
        return new UsageException(dir + " is being written by another servesim (" + describe(content) + "; " + file
                + "): wait for it to finish, or choose another --output");
    }

    /** Empties the lock file, then releases the lock. */
    @Override
    public synchronized void close() throws IOException {
        if (released) {
            return;
        }
        released = true;
        try {
            channel.truncate(0);
            channel.force(true);
        } finally {
            try {
                lock.release();
            } finally {
                channel.close();
            }
        }
    }

    private static String holder(String command) {
        ObjectNode n = JSON.createObjectNode();
        n.put("written_by", "servesim");
        n.put("pid", ProcessHandle.current().pid());
        n.put("host", host());
        n.put("started", Instant.now().toString());
        n.put("command", command);
        return n.toString();
    }

    private static String host() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            return "unknown host";
        }
    }

    /** "pid 123 on host h, started T, running 'servesim sweep ...'" from a lock file's content. */
    private static String describe(String content) {
        try {
            JsonNode n = JSON.readTree(content);
            if (n != null && n.has("pid")) {
                return "pid " + n.path("pid").asLong() + " on host " + n.path("host").asText() + ", started "
                        + n.path("started").asText() + ", running '" + n.path("command").asText() + "'";
            }
        } catch (IOException e) {
            // not ours or cut: described as unknown below
        }
        return "holder unknown";
    }

    private static String read(FileChannel channel) throws IOException {
        ByteBuffer buf = ByteBuffer.allocate((int) Math.min(channel.size(), 1 << 16));
        channel.read(buf, 0);
        return new String(buf.array(), 0, buf.position(), StandardCharsets.UTF_8);
    }

    private static void write(FileChannel channel, String content) throws IOException {
        channel.truncate(0);
        channel.write(ByteBuffer.wrap(content.getBytes(StandardCharsets.UTF_8)), 0);
        channel.force(true);
    }
}
