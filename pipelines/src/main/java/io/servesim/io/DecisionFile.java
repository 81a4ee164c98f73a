package io.servesim.io;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.servesim.config.ConfigException;
import io.servesim.exit.ErrorReport;
import io.servesim.decisions.DecisionRecord;
import io.servesim.decisions.DecisionSink;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import org.apache.avro.generic.GenericData;

/**
 * A decision trace written as the run makes it ({@code servesim run --trace-out FILE}): Parquet of
 * {@code schemas/decision.avsc} for {@code .parquet}, one JSON object per line with the same keys for
 * {@code .jsonl}. Write failures surface as {@link UncheckedIOException}.
 */
public abstract sealed class DecisionFile implements DecisionSink, AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** Checks that {@code file}, named by {@code option}, ends in {@code .parquet} or {@code .jsonl}. */
    public static void checkName(Path file, String option) {
        String name = file.getFileName() == null ? "" : file.getFileName().toString().toLowerCase(Locale.ROOT);
        if (!name.endsWith(".parquet") && !name.endsWith(".jsonl")) {
            throw new ConfigException(option, "'" + file + "' must end in .parquet or .jsonl");
        }
    }

    /** Opens {@code file} by its extension; {@code option} names the flag for errors. */
    public static DecisionFile open(Path file, String option) {
        checkName(file, option);
        if (file.getFileName().toString().toLowerCase(Locale.ROOT).endsWith(".parquet")) {
            return new Parquet(RowFiles.open(file, Schemas.load("decision.avsc"), option));
        }
        try {
            Path parent = file.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            return new Jsonl(Files.newBufferedWriter(file));
        } catch (IOException e) {
            throw new ConfigException(option, "cannot write '" + file + "': " + ErrorReport.cause(e));
        }
    }

    @Override
    public abstract void close() throws IOException;

    private static final class Parquet extends DecisionFile {
        private final RowFile file;

        private Parquet(RowFile file) {
            this.file = file;
        }

        @Override
        public void accept(DecisionRecord d) {
            // a fresh row: the candidates are nested records
            GenericData.Record row = new GenericData.Record(file.schema());
            DecisionRows.fill(row, d);
            try {
                file.write(row);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        @Override
        public void close() throws IOException {
            file.close();
        }
    }

    private static final class Jsonl extends DecisionFile {
        private final BufferedWriter out;

        private Jsonl(BufferedWriter out) {
            this.out = out;
        }

        @Override
        public void accept(DecisionRecord d) {
            try {
                out.write(JSON.writeValueAsString(DecisionRows.toMap(d)));
                out.newLine();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        @Override
        public void close() throws IOException {
            out.close();
        }
    }
}
