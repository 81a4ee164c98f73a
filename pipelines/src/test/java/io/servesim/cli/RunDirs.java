package io.servesim.cli;

import io.servesim.testing.RepoFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Run directories for the command tests. {@link #tiny} is two requests small enough to price by hand
 * (the same run as simcore's {@code TinyRun}): request 1 has 32 prompt tokens (ids 1..32) and 3
 * output tokens and arrives at 0; request 2 repeats the first 16 ids, has 1 output token and arrives
 * at 10 ms. Measured: TTFT 1.5 and 1.2 ms, E2E 4.0 and 1.2 ms.
 */
final class RunDirs {
    /** The real vLLM RTX PRO 6000 run the repository ships (see sweeps/data/PROVENANCE.md). */
    static final Path REAL = RepoFiles.realRun();

    static final String META = """
            {"schema_version": 1, "model": "meta-llama/Llama-3.1-8B", "vllm_version": "0.19.0",
             "hardware": {"device_name": "NVIDIA RTX PRO 6000 Blackwell Server Edition"}, "num_gpu_blocks": 100,
             "engine_kwargs": {"tensor_parallel_size": 1, "max_num_seqs": 8, "max_num_batched_tokens": 2048}}
            """;

    private RunDirs() {
    }

    static Path tiny(Path dir) throws IOException {
        Files.writeString(dir.resolve("meta.json"), META);
        Files.writeString(dir.resolve("requests.jsonl"), """
                {"request_id": "bench-0", "input_toks": 32, "output_toks": 3, "queued_ts": 100.0, "scheduled_ts": 100.0001, "first_token_ts": 100.0015, "last_token_ts": 100.004}
                {"request_id": "bench-1", "input_toks": 32, "output_toks": 1, "queued_ts": 100.01, "scheduled_ts": 100.01, "first_token_ts": 100.0112, "last_token_ts": 100.0112}
                """);
        StringBuilder ids1 = new StringBuilder();
        StringBuilder ids2 = new StringBuilder();
        for (int i = 1; i <= 32; i++) {
            ids1.append(i == 1 ? "" : ", ").append(i);
            ids2.append(i == 1 ? "" : ", ").append(i <= 16 ? i : 84 + i);
        }
        Files.writeString(dir.resolve("workload_tiny.jsonl"),
                "{\"input_toks\": 32, \"output_toks\": 3, \"arrival_time_ns\": 0, \"input_tok_ids\": [" + ids1 + "]}\n"
                        + "{\"input_toks\": 32, \"output_toks\": 1, \"arrival_time_ns\": 10000000, \"input_tok_ids\": [" + ids2 + "]}\n");
        return dir;
    }
}
