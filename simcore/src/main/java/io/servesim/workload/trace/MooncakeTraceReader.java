package io.servesim.workload.trace;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import io.servesim.engine.TokenSequence;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Mooncake JSONL traces (kvcache-ai/Mooncake FAST25-release/traces, Mooncake FAST'25):
 * {@code timestamp} (ms), {@code input_length}, {@code output_length}, {@code hash_ids}. Each hash id
 * names one {@value #BLOCK_TOKENS}-token block and equal ids are equal content, so the prompt is one
 * segment per id ({@code 512} tokens, the last one {@code input_length - 512 (n - 1)}) with a content
 * id derived from the hash id, salted per file: equal ids give equal KV block hashes whenever the
 * engine's block size divides 512. Without {@code hash_ids} the prompt is unique.
 *
 * <p>Optional multi-turn fields (the Mooncake-style session convention of NVIDIA Dynamo's mocker
 * replay and AIPerf): {@code session_id} (rows with equal ids are consecutive turns of one session)
 * and {@code delay} (ms after the previous turn completes; used in concurrency mode).
 *
 * <p>A prompt's tokens past the hash ids that another row of the file also starts with are declared
 * unshared ({@link SharedHashPrefixes}), so the KV cache indexes only blocks another request can hit.
 */
public final class MooncakeTraceReader extends JsonTraceReader {
    /** Tokens per hash id. */
    public static final int BLOCK_TOKENS = 512;

    private final Path path;
    /** Built on the first row read (a validation that reads no row does not scan the file). */
    private SharedHashPrefixes shared;

    public MooncakeTraceReader(Path path, Options options) {
        super(path, options);
        this.path = path;
    }

    @Override
    TraceRow parse(JsonNode n, long lineNo) throws BadLine {
        double timestampMs = number(n, "timestamp", options.timestampsRequired(), 0);
        int input = tokens(integer(n, "input_length", 1), "input_length");
        int output = tokens(integer(n, "output_length", 0), "output_length");
        JsonNode hashIds = array(n, "hash_ids");
        long[] raw = hashIds == null ? null : hashIds(hashIds, input);
        JsonNode session = n.get("session_id");
        String sessionKey = session == null || session.isNull() ? null : session.asText();
        return row(lineNo, timestampMs, input, output, raw, sessionKey, number(n, "delay", false, 0));
    }

    /**
     * The plain line: numbers where numbers belong (lengths as ints in range, hash ids as longs),
     * {@code session_id} a string or null. Anything else goes through {@link #parse(JsonNode, long)}.
     */
    @Override
    TraceRow parsePlain(JsonParser p, long lineNo) throws IOException {
        double timestampMs = 0;
        boolean timestamp = false;
        long input = -1;
        long output = -1;
        long[] raw = null;
        String sessionKey = null;
        double delayMs = 0;
        JsonToken t;
        for (t = p.nextToken(); t == JsonToken.FIELD_NAME; t = p.nextToken()) {
            String name = p.currentName();
            JsonToken v = p.nextToken();
            if (v == JsonToken.VALUE_NULL && !name.equals("input_length") && !name.equals("output_length")) {
                // null reads as absent: no timestamp (0), unique prompt, no session, no delay
                switch (name) {
                    case "timestamp" -> timestamp = false;
                    case "hash_ids" -> raw = null;
                    case "session_id" -> sessionKey = null;
                    case "delay" -> delayMs = 0;
                    default -> { }
                }
                continue;
            }
            switch (name) {
                case "timestamp" -> {
                    timestampMs = plainNumber(p, v);
                    timestamp = true;
                    if (timestampMs < 0) {
                        return null;
                    }
                }
                case "input_length" -> input = plainInteger(p, v, 1, Integer.MAX_VALUE);
                case "output_length" -> output = plainInteger(p, v, 0, Integer.MAX_VALUE);
                case "hash_ids" -> {
                    raw = plainIds(p, v);
                    if (raw == null) {
                        return null;
                    }
                }
                case "session_id" -> {
                    if (v != JsonToken.VALUE_STRING) {
                        return null;
                    }
                    sessionKey = p.getText();
                }
                case "delay" -> {
                    delayMs = plainNumber(p, v);
                    if (delayMs < 0) {
                        return null;
                    }
                }
                default -> p.skipChildren();
            }
        }
        if (t != JsonToken.END_OBJECT || input < 0 || output < 0 || !timestamp && options.timestampsRequired()
                || raw != null && raw.length != (input + BLOCK_TOKENS - 1) / BLOCK_TOKENS) {
            return null;
        }
        return row(lineNo, timestamp ? timestampMs : 0, (int) input, (int) output, raw, sessionKey, delayMs);
    }

    /** The ids of a {@code hash_ids} array of ints and longs (the current token its start), else null. */
    private static long[] plainIds(JsonParser p, JsonToken start) throws IOException {
        if (start != JsonToken.START_ARRAY) {
            return null;
        }
        long[] ids = new long[32];
        int n = 0;
        for (JsonToken e = p.nextToken(); e != JsonToken.END_ARRAY; e = p.nextToken()) {
            if (e != JsonToken.VALUE_NUMBER_INT || !isPlainInt(p)) {
                return null;
            }
            if (n == ids.length) {
                ids = Arrays.copyOf(ids, 2 * n);
            }
            ids[n++] = p.getLongValue();
        }
        return Arrays.copyOf(ids, n);
    }

    /** The row both paths build from a line's values ({@code raw}: its hash ids as the file gives them, or null). */
    private TraceRow row(long lineNo, double timestampMs, int input, int output, long[] raw, String sessionKey,
                         double delayMs) {
        TokenSequence prompt = raw == null ? TokenSequence.unique(uniqueContent(lineNo), input) : blocks(raw, input);
        return new TraceRow(lineNo, Math.round(timestampMs * 1000), prompt, output, sessionKey, Math.round(delayMs * 1000));
    }

    /** The hash ids of a {@code hash_ids} array, checked: one per block of {@code input}, each an integer. */
    private static long[] hashIds(JsonNode hashIds, int input) throws BadLine {
        int n = hashIds.size();
        int needed = (int) ((input + (long) BLOCK_TOKENS - 1) / BLOCK_TOKENS); // long: input may be near Integer.MAX_VALUE
        if (n != needed) {
            throw new BadLine("hash_ids has " + n + " ids but input_length " + input + " needs " + needed
                    + " blocks of " + BLOCK_TOKENS + " tokens");
        }
        long[] raw = new long[n];
        for (int i = 0; i < n; i++) {
            JsonNode h = hashIds.get(i);
            if (!h.isIntegralNumber()) {
                throw new BadLine("hash_ids[" + i + "] must be an integer, got " + h);
            }
            raw[i] = h.asLong();
        }
        return raw;
    }

    /** The prompt of {@code raw} hash ids (one per block of {@code input} tokens). */
    private TokenSequence blocks(long[] raw, int input) {
        int n = raw.length;
        long[] ids = new long[n];
        int[] lengths = new int[n];
        for (int i = 0; i < n; i++) {
            ids[i] = blockContent(raw[i]);
            lengths[i] = i < n - 1 ? BLOCK_TOKENS : input - BLOCK_TOKENS * (n - 1);
        }
        if (shared == null) {
            shared = SharedHashPrefixes.of(path);
        }
        // only the blocks another row starts with can be hit by another request (see SharedHashPrefixes)
        return TokenSequence.ofSegments(ids, lengths, (int) Math.min(input, (long) BLOCK_TOKENS * shared.sharedBlocks(raw)));
    }
}
