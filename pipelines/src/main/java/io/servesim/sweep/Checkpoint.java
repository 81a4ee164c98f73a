package io.servesim.sweep;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.stream.Stream;
import org.apache.beam.sdk.values.KV;

/**
 * The rows of every finished cell, kept as they are produced so an interrupted sweep loses only
 * the cells that were running: {@code _staging/_checkpoint/<cell_id>.rows} holds the cell's
 * {@link RowBatch}es (dataset directory, encoded rows), each as a UTF string, a length and the
 * bytes. A file is written under a temporary name and renamed into place, so it is either whole or
 * absent; a retried bundle rewrites the same bytes (the kernel is deterministic), so retries never
 * duplicate a cell. {@code sweep --resume} runs only cells without a file and feeds the files'
 * batches into the same dataset write ({@link ReplayCheckpointFn}), so the resumed datasets hold
 * exactly the rows an uninterrupted sweep writes. Cells that failed are not kept: a resume runs
 * them again.
 */
final class Checkpoint {
    static final String DIRECTORY = "_checkpoint";
    private static final String SUFFIX = ".rows";

    private Checkpoint() {
    }

    /** The checkpoint folder of a staging folder. */
    static Path dir(Path staging) {
        return staging.resolve(DIRECTORY);
    }

    /** Writes {@code cellId}'s batches atomically into {@code checkpointDir}. */
    static void write(Path checkpointDir, String cellId, List<KV<String, byte[]>> batches) throws IOException {
        Path tmp = checkpointDir.resolve("." + cellId + "." + UUID.randomUUID() + ".tmp");
        try (DataOutputStream out = new DataOutputStream(new BufferedOutputStream(Files.newOutputStream(tmp), 1 << 16))) {
            for (KV<String, byte[]> b : batches) {
                out.writeUTF(b.getKey());
                out.writeInt(b.getValue().length);
                out.write(b.getValue());
            }
        }
        Files.move(tmp, checkpointDir.resolve(cellId + SUFFIX), StandardCopyOption.REPLACE_EXISTING,
                StandardCopyOption.ATOMIC_MOVE);
    }

    /** The batches of one checkpoint file, in the order they were written. */
    static List<KV<String, byte[]>> read(Path file) throws IOException {
        List<KV<String, byte[]>> batches = new ArrayList<>();
        try (DataInputStream in = new DataInputStream(new BufferedInputStream(Files.newInputStream(file), 1 << 16))) {
            while (true) {
                String dataset;
                try {
                    dataset = in.readUTF();
                } catch (EOFException end) {
                    return batches;
                }
                byte[] bytes = new byte[in.readInt()];
                in.readFully(bytes);
                batches.add(KV.of(dataset, bytes));
            }
        }
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
