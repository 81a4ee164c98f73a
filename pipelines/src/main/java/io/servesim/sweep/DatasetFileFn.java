package io.servesim.sweep;

import io.servesim.io.LocalOutputFile;
import io.servesim.io.ParquetWriters;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import org.apache.avro.Schema;
import org.apache.avro.io.BinaryDecoder;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.values.KV;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.hadoop.ParquetWriter;

/**
 * Writes the datasets on the DirectRunner, one file per dataset per bundle: each {@link RowBatch}
 * of a bundle is shredded into that bundle's file of its dataset
 * ({@link RowBatchSink#writeBatch}), {@code <outDir>/<dataset>/part-<random id>.parquet}, which is
 * written under a hidden temporary name and renamed into place when the bundle finishes, so a file
 * is whole or absent. Each bundle of up to {@link SweepPipeline#MAX_CELLS_PER_BUNDLE} cells
 * ({@link SweepPipeline#inBundles}) is written when it reaches this DoFn, with no grouping in
 * between. The DirectRunner runs queued bundles in turn, so the bundles of cells usually all run
 * before the first write, and a sweep still holds its rows (as encoded batches, ~70 bytes a request
 * row) until then; what it no longer holds is the copies a {@code GroupByKey}'s state made of them
 * (FileIO's sharding step grouped every row): the 200-cell benchmark sweep peaked at 481-505 MB
 * instead of 578 MB, and runs in a 184 MB heap where it needed 192 MB.
 *
 * <p>Random names are safe here because the DirectRunner never retries a bundle (a failure fails
 * the pipeline), and each run writes into a fresh staging folder, which {@link OutputCommit} moves
 * into place only after the pipeline has succeeded ({@code --resume} clears its datasets first). So
 * FileIO's own commit protocol (temporary files gathered, reshuffled twice and renamed by a
 * finalizing step, ~20 primitive steps set up and run in turn after the last cell) adds nothing
 * here. Flink, which retries, keeps {@code FileIO} ({@link RunnerChoice#wholeDatasetFiles()}).
 */
final class DatasetFileFn extends DoFn<KV<String, byte[]>, Void> {
    private static final long serialVersionUID = 2L;
    private static final String SUFFIX = ".parquet";

    private final String outDir;
    private final Map<String, String> schemaJson;
    private transient Map<String, OpenFile> open;
    private transient BinaryDecoder decoder;

    /** A bundle's file of one dataset, being written under {@code tmp}. */
    private record OpenFile(Path tmp, Path target, ParquetWriter<BinaryDecoder> writer) {
    }

    /** {@code schemaJson}: each written dataset's Avro schema as JSON, by directory. */
    DatasetFileFn(Path outDir, Map<String, String> schemaJson) {
        this.outDir = outDir.toString();
        this.schemaJson = new HashMap<>(schemaJson);
    }

    @StartBundle
    public void startBundle() {
        open = new HashMap<>();
    }

    @ProcessElement
    public void process(@Element KV<String, byte[]> batch) throws IOException {
        OpenFile file = open.get(batch.getKey());
        if (file == null) {
            file = create(batch.getKey());
            open.put(batch.getKey(), file);
        }
        decoder = RowBatchSink.writeBatch(file.writer(), batch.getValue(), decoder);
    }

    /** Closes the bundle's files and renames each into place. */
    @FinishBundle
    public void finishBundle() throws IOException {
        try {
            for (OpenFile file : open.values()) {
                file.writer().close();
                Files.move(file.tmp(), file.target(), StandardCopyOption.ATOMIC_MOVE);
            }
            open.clear();
        } finally {
            discard();
        }
    }

    /** After a failed bundle: its files are closed and deleted, never renamed into the dataset. */
    @Teardown
    public void teardown() throws IOException {
        discard();
    }

    private OpenFile create(String dataset) throws IOException {
        String json = schemaJson.get(dataset);
        if (json == null) {
            throw new IllegalStateException("rows for " + dataset + ", which this sweep does not write"
                    + " (writes " + schemaJson.keySet() + ")");
        }
        Path dir = Path.of(outDir, dataset);
        Files.createDirectories(dir);
        String name = "part-" + UUID.randomUUID() + SUFFIX;
        Path tmp = dir.resolve("." + name + ".tmp");
        ParquetWriter<BinaryDecoder> writer = ParquetWriters.openEncoded(new LocalOutputFile(tmp),
                new Schema.Parser().parse(json), ParquetFileWriter.Mode.CREATE);
        return new OpenFile(tmp, dir.resolve(name), writer);
    }

    /** Closes and deletes every file still open (none after a bundle that finished). */
    private void discard() throws IOException {
        if (open == null) {
            return;
        }
        IOException first = null;
        for (OpenFile file : open.values()) {
            try {
                file.writer().close();
            } catch (IOException | RuntimeException e) {
                // the file is deleted below; a writer that cannot close has nothing to keep
            }
            try {
                Files.deleteIfExists(file.tmp());
            } catch (IOException e) {
                first = first == null ? e : first;
            }
        }
        open.clear();
        if (first != null) {
            throw first;
        }
    }
}
