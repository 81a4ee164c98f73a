package io.servesim.sweep;

import java.io.BufferedOutputStream;
import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.zip.CRC32C;
import java.util.zip.CheckedOutputStream;
import org.apache.beam.sdk.values.KV;

/**
 * The rows of every finished cell, kept as they are produced so an interrupted sweep loses only
 * the cells that were running: {@code _staging/_checkpoint/<cell_id>.rows} holds the cell's
 * {@link RowBatch}es (dataset directory, encoded rows). A file is written under a temporary name and
 * renamed into place, so it is either whole or absent; a retried bundle rewrites the same bytes (the
 * kernel is deterministic), so retries never duplicate a cell. {@code sweep --resume} runs only cells
 * without a sound file and feeds the files' batches into the same dataset write
 * ({@link ReplayCheckpointFn}), so the resumed datasets hold exactly the rows an uninterrupted sweep
 * writes. Cells that failed are not kept: a resume runs them again.
 *
 * <p>A file is never trusted blindly: it starts with a magic number and the batch count and ends with
 * the CRC32C of everything before it (the checksum HDFS and iSCSI use; {@link CRC32C}). One flipped
 * bit, a cut file or a file of an older format is {@link Damaged}: a resume reports it with its path
 * and runs the cell again ({@link #sound}) instead of committing a wrong row or failing.
 *
 * <p>Layout: {@code int MAGIC, int batches, batches x (UTF dataset, int length, bytes), int crc32c}.
 */
final class Checkpoint {
    static final String DIRECTORY = "_checkpoint";
    private static final String SUFFIX = ".rows";
    /** A checkpoint's name ({@code <cell id>.rows}) or the one it is written under first. */
    private static final Pattern CHECKPOINT_NAME = Pattern.compile("([0-9a-f]{16})\\.rows|\\.([0-9a-f]{16})\\.[0-9a-f-]{36}\\.tmp");
    /** "SVC2": servesim checkpoint, format 2 (format 1 had no header or checksum). */
    private static final int MAGIC = 0x53564332;
    private static final int TRAILER_BYTES = Integer.BYTES;

    private Checkpoint() {
    }

    /** A checkpoint file that cannot be trusted; the message says why. */
    static final class Damaged extends IOException {
        private static final long serialVersionUID = 1L;

        Damaged(Path file, String why) {
            super(file + ": " + why);
        }
    }

    /** The checkpoint folder of a staging folder. */
    static Path dir(Path staging) {
        return staging.resolve(DIRECTORY);
    }

    /** Writes {@code cellId}'s batches atomically into {@code checkpointDir}. */
    static void write(Path checkpointDir, String cellId, List<KV<String, byte[]>> batches) throws IOException {
        Path tmp = checkpointDir.resolve("." + cellId + "." + UUID.randomUUID() + ".tmp");
        CRC32C crc = new CRC32C();
        try (OutputStream file = new BufferedOutputStream(Files.newOutputStream(tmp), 1 << 16);
             DataOutputStream out = new DataOutputStream(new CheckedOutputStream(file, crc))) {
            out.writeInt(MAGIC);
            out.writeInt(batches.size());
            for (KV<String, byte[]> b : batches) {
                out.writeUTF(b.getKey());
                out.writeInt(b.getValue().length);
                out.write(b.getValue());
            }
            out.flush();
            new DataOutputStream(file).writeInt((int) crc.getValue());
        }
        Files.move(tmp, checkpointDir.resolve(cellId + SUFFIX), StandardCopyOption.REPLACE_EXISTING,
                StandardCopyOption.ATOMIC_MOVE);
    }

    /** The batches of one checkpoint file, in the order they were written; {@link Damaged} if it is not sound. */
    static List<KV<String, byte[]>> read(Path file) throws IOException {
        byte[] all = Files.readAllBytes(file);
        if (all.length < 2 * Integer.BYTES + TRAILER_BYTES) {
            throw new Damaged(file, "cut short (" + all.length + " bytes)");
        }
        int body = all.length - TRAILER_BYTES;
        CRC32C crc = new CRC32C();
        crc.update(all, 0, body);
        if ((int) crc.getValue() != ByteBuffer.wrap(all, body, TRAILER_BYTES).getInt()) {
            throw new Damaged(file, "its CRC32C does not match its content (damaged, cut, or of an older format)");
        }
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(all, 0, body));
        if (in.readInt() != MAGIC) {
            throw new Damaged(file, "not a servesim checkpoint of this version");
        }
        int count = in.readInt();
        List<KV<String, byte[]>> batches = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            String dataset = in.readUTF();
            byte[] bytes = new byte[in.readInt()];
            in.readFully(bytes);
            batches.add(KV.of(dataset, bytes));
        }
        if (in.available() != 0) {
            throw new Damaged(file, in.available() + " bytes after its last batch");
        }
        return batches;
    }

    /**
     * The sound files among {@code files}: each is read and checked; a damaged one is reported on {@code err} with
     * its path and deleted (servesim wrote it), so its cell runs again.
     */
    static List<Path> sound(List<Path> files, PrintStream err) throws IOException {
        List<Path> sound = new ArrayList<>(files.size());
        for (Path f : files) {
            try {
                read(f);
                sound.add(f);
            } catch (Damaged | EOFException e) {
                err.println("servesim sweep: damaged checkpoint " + (e instanceof Damaged ? e.getMessage() : f + ": cut short")
                        + "; its cell (" + cellId(f) + ") runs again");
                Files.delete(f);
            }
        }
        return sound;
    }

    /** The finished cells' files in {@code checkpointDir}, sorted by name (none if it does not exist). */
    static List<Path> files(Path checkpointDir) throws IOException {
        if (!Files.isDirectory(checkpointDir)) {
            return List.of();
        }
        try (Stream<Path> s = Files.list(checkpointDir)) {
            return s.filter(p -> p.getFileName().toString().endsWith(SUFFIX) && !p.getFileName().toString().startsWith("."))
                    .sorted().toList();
        }
    }

    /** The cell id a checkpoint file belongs to. */
    /**
     * Whether {@code name} (in the checkpoint folder of a sweep of {@code cellIds}) is one this class writes: the
     * checkpoint of one of the cells, named by its id, or one being written; any other file there is not servesim's.
     */
    static boolean isItsFile(String name, Set<String> cellIds) {
        Matcher m = CHECKPOINT_NAME.matcher(name);
        return m.matches() && cellIds.contains(m.group(1) != null ? m.group(1) : m.group(2));
    }

    static String cellId(Path file) {
        String name = file.getFileName().toString();
        return name.substring(0, name.length() - SUFFIX.length());
    }

    /** Finished cells kept under {@code staging} (0 when it cannot be read). */
    static int count(Path staging) {
        try {
            return files(dir(staging)).size();
        } catch (IOException e) {
            return 0;
        }
    }
}
