package io.servesim.workload.trace;

import io.servesim.engine.TokenSequence;
import java.nio.file.Path;

/**
 * The simple CSV trace: header {@code arrival_us,input_tokens,output_tokens}, one request per line.
 * The format carries no content, so every prompt is unique.
 */
public final class CsvTraceReader extends TraceReader {
    static final String HEADER = "arrival_us,input_tokens,output_tokens";

    public CsvTraceReader(Path path, Options options) {
        super(path, options, HEADER);
    }

    @Override
    protected TraceRow parse(String line, long lineNo) throws BadLine {
        String[] f = line.split(",", -1);
        if (f.length != 3) {
            throw new BadLine("expected 3 fields (" + HEADER + "), got " + f.length);
        }
        long arrivalUs = parseLong(f[0], "arrival_us", 0);
        int input = tokens(parseLong(f[1], "input_tokens", 1), "input_tokens");
        int output = tokens(parseLong(f[2], "output_tokens", 0), "output_tokens");
        return new TraceRow(lineNo, arrivalUs, TokenSequence.unique(uniqueContent(lineNo), input), output);
    }
}
