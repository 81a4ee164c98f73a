package io.servesim.fidelity;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * A two-request run directory in the LLMServingSim bench format, small enough to price by hand.
 * Request 1: 32 prompt tokens (ids 1..32), 3 output tokens, arrives at 5 ms. Request 2: the first 16
 * of those ids then 16 new ones, 1 output token, arrives at 15 ms (10 ms after request 1).
 * Measured (engine clock; arrival_time on the wall clock, so latencies count from queued_ts):
 * request 1 TTFT 1.5 ms, E2E 4.0 ms, TPOT 1.25 ms, queueing 0.1 ms; request 2 TTFT 1.2 ms, E2E 1.2 ms, queueing 0.
 */
final class TinyRun {
    static final String META = """
            {"schema_version": 1, "model": "meta-llama/Llama-3.1-8B", "vllm_version": "0.19.0",
             "hardware": {"device_name": "NVIDIA RTX PRO 6000 Blackwell Server Edition"}, "num_gpu_blocks": 100,
             "engine_kwargs": {"model": "meta-llama/Llama-3.1-8B", "tensor_parallel_size": 1, "max_num_seqs": 8,
                               "max_num_batched_tokens": 2048, "max_model_len": null, "dtype": "bfloat16"},
             "dataset_path": "workloads/tiny.jsonl"}
            """;
    static final String REQUESTS = """
            {"request_id": "bench-0", "input_toks": 32, "output_toks": 3, "arrival_time": 1777142838.3, "queued_ts": 100.0, "scheduled_ts": 100.0001, "first_token_ts": 100.0015, "last_token_ts": 100.004}
            {"request_id": "bench-1", "input_toks": 32, "output_toks": 1, "arrival_time": 1777142838.31, "queued_ts": 100.01, "scheduled_ts": 100.01, "first_token_ts": 100.0112, "last_token_ts": 100.0112}
            """;

    private TinyRun() {
    }

    static String workload() {
        return line(32, 3, 5_000_000, IntStream.rangeClosed(1, 32)) + "\n"
                + line(32, 1, 15_000_000, IntStream.concat(IntStream.rangeClosed(1, 16), IntStream.rangeClosed(101, 116))) + "\n";
    }

    /** Writes the run into {@code dir} and returns it. */
    static Path write(Path dir) throws IOException {
        Files.writeString(dir.resolve("meta.json"), META);
        Files.writeString(dir.resolve("requests.jsonl"), REQUESTS);
        Files.writeString(dir.resolve("workload_tiny.jsonl"), workload());
        return dir;
    }

    private static String line(int input, int output, long arrivalNs, IntStream ids) {
        return "{\"input_toks\": " + input + ", \"output_toks\": " + output + ", \"arrival_time_ns\": " + arrivalNs
                + ", \"input_tok_ids\": [" + ids.mapToObj(Integer::toString).collect(Collectors.joining(", ")) + "]}";
    }
}
