package io.servesim.workload.trace;

import io.servesim.engine.TokenSequence;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoField;

/**
 * The Azure LLM inference trace 2023 (Azure/AzurePublicDataset {@code AzureLLMInferenceTrace_*.csv},
 * Splitwise, ISCA'24): header {@code TIMESTAMP,ContextTokens,GeneratedTokens}, timestamps like
 * {@code 2023-11-16 18:17:03.9799600} (UTC, up to 9 fractional digits), rounded to the nearest
 * microsecond. The trace has no content, so every prompt is unique.
 */
public final class AzureTraceReader extends TraceReader {
    static final String HEADER = "TIMESTAMP,ContextTokens,GeneratedTokens";
    private static final DateTimeFormatter TIME = new DateTimeFormatterBuilder()
            .appendPattern("yyyy-MM-dd HH:mm:ss")
            .optionalStart().appendFraction(ChronoField.NANO_OF_SECOND, 0, 9, true).optionalEnd()
            .toFormatter();

    public AzureTraceReader(Path path, Options options) {
        super(path, options, HEADER);
    }

    @Override
    protected TraceRow parse(String line, long lineNo) throws BadLine {
        String[] f = line.split(",", -1);
        if (f.length != 3) {
            throw new BadLine("expected 3 fields (" + HEADER + "), got " + f.length);
        }
        long timestampUs = micros(f[0].strip());
        int input = tokens(parseLong(f[1], "ContextTokens", 1), "ContextTokens");
        int output = tokens(parseLong(f[2], "GeneratedTokens", 0), "GeneratedTokens");
        return new TraceRow(lineNo, timestampUs, TokenSequence.unique(uniqueContent(lineNo), input), output);
    }

    /** Microseconds since the epoch of a UTC timestamp, rounded half up. */
    static long micros(String s) throws BadLine {
        try {
            LocalDateTime t = LocalDateTime.parse(s, TIME);
            long nanos = Math.addExact(Math.multiplyExact(t.toEpochSecond(ZoneOffset.UTC), 1_000_000_000L), t.getNano());
            return Math.floorDiv(nanos + 500, 1000);
        } catch (DateTimeParseException | ArithmeticException e) {
            throw new BadLine("TIMESTAMP is not 'yyyy-MM-dd HH:mm:ss[.fffffff]': '" + s + "'");
        }
    }
}
