package io.servesim.workload.trace;

import com.fasterxml.jackson.databind.JsonNode;
import io.servesim.engine.TokenSequence;
import java.nio.file.Path;

/**
 * vLLM benchmark JSONL workloads (as written for {@code vllm bench serve} replays, e.g.
 * casys-kaist/LLMServingSim {@code workloads/}): {@code input_toks}, {@code output_toks},
 * {@code arrival_time_ns} and optionally {@code input_tok_ids}. With token ids the prompt is the
 * real token sequence (real prefix caching); without, it is unique. Timestamps are nanoseconds,
 * rounded to the nearest microsecond.
 */
public final class VllmTraceReader extends JsonTraceReader {
    public VllmTraceReader(Path path, Options options) {
        super(path, options);
    }

    @Override
    TraceRow parse(JsonNode n, long lineNo) throws BadLine {
        int input = tokens(integer(n, "input_toks", 1), "input_toks");
        int output = tokens(integer(n, "output_toks", 0), "output_toks");
        long arrivalNs = options.timestampsRequired() ? integer(n, "arrival_time_ns", 0) : 0;
        JsonNode ids = array(n, "input_tok_ids");
        TokenSequence prompt;
        if (ids == null) {
            prompt = TokenSequence.unique(uniqueContent(lineNo), input);
        } else {
            if (ids.size() != input) {
                throw new BadLine("input_tok_ids has " + ids.size() + " ids but input_toks is " + input);
            }
            int[] tokens = new int[input];
            for (int i = 0; i < input; i++) {
                JsonNode t = ids.get(i);
                if (!t.canConvertToInt() || !t.isIntegralNumber()) {
                    throw new BadLine("input_tok_ids[" + i + "] must be an int, got " + t);
                }
                tokens[i] = t.asInt();
            }
            prompt = TokenSequence.ofTokenIds(tokens);
        }
        return new TraceRow(lineNo, Math.floorDiv(arrivalNs + 500, 1000), prompt, output);
    }
}
