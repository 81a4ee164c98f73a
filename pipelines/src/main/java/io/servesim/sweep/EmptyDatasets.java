package io.servesim.sweep;

import io.servesim.io.LocalOutputFile;
import io.servesim.io.ParquetWriters;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.hadoop.ParquetWriter;

/**
 * A dataset without rows gets no file from the pipeline (no batch reaches {@link DatasetFileFn};
 * FileIO writes none for an empty PCollection), so a sweep without failures would have no
 * {@code errors/} files and {@code SELECT * FROM 'out/x/errors/*.parquet'} would fail. After the
 * pipeline, the launcher gives every written dataset that has no file one schema-only Parquet file
 * (zero rows), so queries over any dataset need no special case.
 */
final class EmptyDatasets {
    private EmptyDatasets() {
    }

    static void fill(Path outDir, List<Dataset> written, Map<Dataset, Schema> schemas) throws IOException {
        for (Dataset d : written) {
            Path dir = outDir.resolve(d.directory());
            Files.createDirectories(dir);
            boolean empty;
            try (var files = Files.list(dir)) {
                empty = files.noneMatch(f -> f.getFileName().toString().endsWith(".parquet"));
            }
            if (empty) {
                ParquetWriter<GenericRecord> w = ParquetWriters.open(new LocalOutputFile(dir.resolve("part-00000-of-00001.parquet")),
                        schemas.get(d), ParquetFileWriter.Mode.CREATE);
                w.close();
            }
        }
    }
}
