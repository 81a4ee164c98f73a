package io.servesim.io;

import io.servesim.config.ConfigException;
import io.servesim.exit.ErrorReport;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import org.apache.avro.Schema;

/**
 * Opens an output file named on the command line ({@code --requests-out}, {@code --sessions-out}, {@code --scaling-out}):
 * Parquet ({@code .parquet}) or CSV ({@code .csv}), chosen by the extension. An existing file is
 * replaced; missing parent directories are created.
 */
public final class RowFiles {
    private RowFiles() {
    }

    /** Checks that {@code file}, named by {@code option}, ends in {@code .parquet} or {@code .csv}. */
    public static void checkName(Path file, String option) {
        String name = file.getFileName() == null ? "" : file.getFileName().toString().toLowerCase(Locale.ROOT);
        if (!name.endsWith(".parquet") && !name.endsWith(".csv")) {
            throw new ConfigException(option, "'" + file + "' must end in .parquet or .csv");
        }
    }

    /**
     * Opens {@code file} for rows of {@code schema}.
     *
     * @param option the command-line option that named the file, for error messages
     * @throws ConfigException (path {@code option}) for an unknown extension or a path that cannot be written
     */
    public static RowFile open(Path file, Schema schema, String option) {
        checkName(file, option);
        boolean parquet = file.getFileName().toString().toLowerCase(Locale.ROOT).endsWith(".parquet");
        try {
            Path parent = file.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            if (Files.isDirectory(file)) {
                throw new ConfigException(option, "'" + file + "' is a directory");
            }
            return parquet ? ParquetRowFile.open(file, schema) : CsvRowFile.open(file, schema);
        } catch (IOException e) {
            throw new ConfigException(option, "cannot write '" + file + "': " + ErrorReport.cause(e));
        }
    }
}
