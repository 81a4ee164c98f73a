package io.servesim.workload.trace;

import com.fasterxml.jackson.databind.JsonNode;
import io.servesim.engine.TokenSequence;
import java.nio.file.Path;

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
        TokenSequence prompt = hashIds == null ? TokenSequence.unique(uniqueContent(lineNo), input) : blocks(hashIds, input);
        JsonNode session = n.get("session_id");
        String sessionKey = session == null || session.isNull() ? null : session.asText();
        long delayUs = Math.round(number(n, "delay", false, 0) * 1000);
        return new TraceRow(lineNo, Math.round(timestampMs * 1000), prompt, output, sessionKey, delayUs);
    }

    private TokenSequence blocks(JsonNode hashIds, int input) throws BadLine {
        int n = hashIds.size();
        int needed = (input + BLOCK_TOKENS - 1) / BLOCK_TOKENS;
        if (n != needed) {
            throw new BadLine("hash_ids has " + n + " ids but input_length " + input + " needs " + needed
                    + " blocks of " + BLOCK_TOKENS + " tokens");
        }
        long[] raw = new long[n];
        long[] ids = new long[n];
        int[] lengths = new int[n];
        for (int i = 0; i < n; i++) {
            JsonNode h = hashIds.get(i);
            if (!h.isIntegralNumber()) {
                throw new BadLine("hash_ids[" + i + "] must be an integer, got " + h);
            }
            raw[i] = h.asLong();
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
