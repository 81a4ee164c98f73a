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
 * Writes one dataset whole, on the DirectRunner: the input is a dataset's directory with all its
 * {@link RowBatch}es (a batch {@code GroupByKey} on the directory), and the output is the single
 * file {@code <outDir>/<directory>/}{@value #FILE}, shredded by the same writer as every sweep
 * file ({@link RowBatchSink#writeBatch}). The file is written under a hidden temporary name in
 * that directory and renamed into place, so it is whole or absent, and a retried group rewrites
 * the same name instead of adding a second file.
 *
 * <p>Why not {@code FileIO} here: {@code outDir} is the sweep's staging folder, which
 * {@link OutputCommit} moves into place only after the pipeline has succeeded, so FileIO's own
 * commit protocol (temporary files gathered, reshuffled twice and renamed by a finalizing step) adds
 * nothing on one machine, and on the DirectRunner each of its ~20 primitive steps is set up
 * (a generated invoker class, a serialization round trip) and run in turn after the last cell. Measured on
 * the quickstart sweep: pipeline build 150 -> 90 ms, last file written to pipeline finished 110-170
 * -> 5-25 ms. Flink keeps {@code FileIO} ({@link RunnerChoice#wholeDatasetFiles()}), whose workers
 * each write their own rows without a shuffle.
 */
final class DatasetFileFn extends DoFn<KV<String, Iterable<byte[]>>, Void> {
    private static final long serialVersionUID = 1L;

    /** The one file of each dataset (FileIO's name for shard 0 of 1, as {@link EmptyDatasets} writes). */
    static final String FILE = "part-00000-of-00001.parquet";

    private final String outDir;
    private final Map<String, String> schemaJson;

    /** {@code schemaJson}: each written dataset's Avro schema as JSON, by directory. */
    DatasetFileFn(Path outDir, Map<String, String> schemaJson) {
        this.outDir = outDir.toString();
        this.schemaJson = new HashMap<>(schemaJson);
    }

    @ProcessElement
    public void process(@Element KV<String, Iterable<byte[]>> dataset) throws IOException {
        String json = schemaJson.get(dataset.getKey());
        if (json == null) {
            throw new IllegalStateException("rows for " + dataset.getKey() + ", which this sweep does not write"
                    + " (writes " + schemaJson.keySet() + ")");
        }
        Path dir = Path.of(outDir, dataset.getKey());
        Files.createDirectories(dir);
        Path tmp = dir.resolve("." + FILE + "." + UUID.randomUUID() + ".tmp");
        try {
            try (ParquetWriter<BinaryDecoder> writer = ParquetWriters.openEncoded(new LocalOutputFile(tmp),
                    new Schema.Parser().parse(json), ParquetFileWriter.Mode.CREATE)) {
                BinaryDecoder decoder = null;
                for (byte[] batch : dataset.getValue()) {
                    decoder = RowBatchSink.writeBatch(writer, batch, decoder);
                }
            }
            Files.move(tmp, dir.resolve(FILE), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(tmp);
        }
    }
}
