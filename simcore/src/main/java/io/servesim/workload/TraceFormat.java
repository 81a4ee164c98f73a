package io.servesim.workload;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * Trace formats, each naming its reader's constructor (Caffeine simulator's {@code TraceFormat}).
 */
public enum TraceFormat {
    /** {@code arrival_us,input_tokens,output_tokens} with a header line. */
    CSV("csv", CsvTraceSource::new);

    /** Builds a reader over a file. */
    @FunctionalInterface
    public interface Reader {
        RequestSource open(Path path, long maxRequests);
    }

    private final String configName;
    private final Reader reader;

    TraceFormat(String configName, Reader reader) {
        this.configName = configName;
        this.reader = reader;
    }

    public String configName() {
        return configName;
    }

    public RequestSource open(Path path, long maxRequests) {
        return reader.open(path, maxRequests);
    }

    public static List<String> names() {
        return Arrays.stream(values()).map(TraceFormat::configName).toList();
    }

    public static TraceFormat of(String name) {
        for (TraceFormat f : values()) {
            if (f.configName.equalsIgnoreCase(name)) {
                return f;
            }
        }
        throw new IllegalArgumentException(name);
    }
}
