package io.servesim.workload;

import io.servesim.engine.Request;
import io.servesim.engine.RequestTags;
import io.servesim.engine.TokenSequence;
import io.servesim.rng.PartitionedRng;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Streams the simple CSV trace {@code arrival_us,input_tokens,output_tokens} (header required),
 * one line per request, never holding more than one line. Arrival times must be non-decreasing.
 * Every prompt is unique content (the format has no token ids).
 */
public final class CsvTraceSource implements RequestSource {
    static final String HEADER = "arrival_us,input_tokens,output_tokens";

    private final Path path;
    private final long maxRequests;
    private final BufferedReader reader;
    private long lineNo;
    private long produced;
    private long lastArrivalUs;

    public CsvTraceSource(Path path, long maxRequests) {
        this.path = path;
        this.maxRequests = maxRequests;
        try {
            this.reader = Files.newBufferedReader(path);
            String header = reader.readLine();
            lineNo = 1;
            if (header == null || !header.strip().replace(" ", "").equalsIgnoreCase(HEADER)) {
                reader.close();
                throw new TraceFormatException(path, 1, "expected header '" + HEADER + "', got '" + header + "'");
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read trace " + path, e);
        }
    }

    @Override
    public Request next() {
        if (maxRequests > 0 && produced >= maxRequests) {
            return null;
        }
        String line;
        try {
            do {
                line = reader.readLine();
                lineNo++;
            } while (line != null && line.isBlank());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read trace " + path, e);
        }
        if (line == null) {
            return null;
        }
        String[] f = line.split(",", -1);
        if (f.length != 3) {
            throw new TraceFormatException(path, lineNo, "expected 3 fields (" + HEADER + "), got " + f.length);
        }
        long arrivalUs = parse(f[0], "arrival_us", 0);
        int input = (int) parse(f[1], "input_tokens", 1);
        int output = (int) parse(f[2], "output_tokens", 0);
        if (arrivalUs < lastArrivalUs) {
            throw new TraceFormatException(path, lineNo, "arrival_us " + arrivalUs + " is before the previous line's " + lastArrivalUs);
        }
        lastArrivalUs = arrivalUs;
        long id = produced++;
        TokenSequence prompt = TokenSequence.unique(PartitionedRng.mix64(0x7EACEL + id), input);
        return new Request(id, RequestTags.DEFAULT, prompt, output, 0, arrivalUs, 0, true);
    }

    private long parse(String s, String field, long min) {
        try {
            long v = Long.parseLong(s.strip());
            if (v < min || v > Integer.MAX_VALUE && !"arrival_us".equals(field)) {
                throw new TraceFormatException(path, lineNo, field + " must be >= " + min + ", got " + v);
            }
            return v;
        } catch (NumberFormatException e) {
            throw new TraceFormatException(path, lineNo, field + " is not an integer: '" + s + "'");
        }
    }

    @Override
    public void close() {
        try {
            reader.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
