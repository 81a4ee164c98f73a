package io.servesim.workload.trace;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * Trace formats, each naming its reader's constructor (as the Caffeine simulator's
 * {@code parser/TraceFormat}).
 */
public enum TraceFormat {
    /** {@code arrival_us,input_tokens,output_tokens} with a header line. */
    CSV("csv", CsvTraceReader::new, 0),
    /** Azure LLM inference trace 2023: {@code TIMESTAMP,ContextTokens,GeneratedTokens}. */
    AZURE("azure", AzureTraceReader::new, 0),
    /** Mooncake JSONL: {@code timestamp} (ms), {@code input_length}, {@code output_length}, {@code hash_ids}. */
    MOONCAKE("mooncake", MooncakeTraceReader::new, MooncakeTraceReader.BLOCK_TOKENS),
    /** vLLM benchmark JSONL: {@code input_toks}, {@code output_toks}, {@code arrival_time_ns}[, {@code input_tok_ids}]. */
    VLLM("vllm", VllmTraceReader::new, 0);

    /** A reader's constructor. */
    @FunctionalInterface
    public interface Reader {
        TraceReader open(Path path, TraceReader.Options options);
    }

    private final String configName;
    private final Reader reader;
    private final int blockTokens;

    TraceFormat(String configName, Reader reader, int blockTokens) {
        this.configName = configName;
        this.reader = reader;
        this.blockTokens = blockTokens;
    }

    public String configName() {
        return configName;
    }

    /** Tokens per trace-level content block that the engine's block size must divide, or 0. */
    public int blockTokens() {
        return blockTokens;
    }

    public TraceReader open(Path path, TraceReader.Options options) {
        return reader.open(path, options);
    }

    public static List<String> names() {
        return Arrays.stream(values()).map(TraceFormat::configName).toList();
    }

    /** The format called {@code name} (case-insensitive). */
    public static TraceFormat of(String name) {
        for (TraceFormat f : values()) {
            if (f.configName.equalsIgnoreCase(name)) {
                return f;
            }
        }
        throw new IllegalArgumentException("unknown trace format '" + name + "'; valid: " + String.join(", ", names()));
    }
}
