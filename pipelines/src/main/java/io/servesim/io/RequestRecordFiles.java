package io.servesim.io;

import io.servesim.config.ConfigException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Opens a per-request output file for {@code servesim run --requests-out FILE}: Parquet
 * ({@code .parquet}, Snappy-compressed, schema {@code schemas/request.avsc}) or CSV ({@code .csv},
 * header = the schema's field names), chosen by the extension. An existing file is replaced;
 * missing parent directories are created.
 */
public final class RequestRecordFiles {
    static final String OPTION = "--requests-out";

    private RequestRecordFiles() {
    }

    /**
     * Opens {@code file} for writing.
     *
     * @throws ConfigException (path {@code --requests-out}) for an unknown extension or a path that
     *                         cannot be written
     */
    public static RecordFileSink open(Path file) {
        String name = file.getFileName() == null ? "" : file.getFileName().toString().toLowerCase(Locale.ROOT);
        boolean parquet = name.endsWith(".parquet");
        if (!parquet && !name.endsWith(".csv")) {
            throw new ConfigException(OPTION, "'" + file + "' must end in .parquet or .csv");
        }
        try {
            Path parent = file.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            if (Files.isDirectory(file)) {
                throw new ConfigException(OPTION, "'" + file + "' is a directory");
            }
            return parquet ? ParquetRequestSink.open(file) : CsvRequestSink.open(file);
        } catch (IOException e) {
            throw new ConfigException(OPTION, "cannot write '" + file + "': " + e);
        }
    }
}
