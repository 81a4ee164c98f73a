package io.servesim.fidelity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.servesim.config.ConfigException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.io.TempDir;

class RealRunTest {
    private static String fails(Path dir) {
        return assertThrows(ConfigException.class, () -> RealRun.read(dir)).getMessage();
    }

    @Test
    void readsSettingsWithVllmDefaultsListed(@TempDir Path dir) throws IOException {
        RealRun run = RealRun.read(TinyRun.write(dir));
        EngineSettings s = run.settings();
        assertEquals("meta-llama/Llama-3.1-8B", s.model());
        assertEquals("NVIDIA RTX PRO 6000 Blackwell Server Edition", s.deviceNameOrNull());
        assertEquals(8, s.maxNumSeqs());
        assertEquals(2048, s.maxNumBatchedTokens());
        assertEquals(0, s.maxModelLenOrZero());
        assertEquals(16, s.blockSizeTokens());
        assertTrue(s.prefixCaching());
        assertEquals(0.9, s.gpuMemoryUtilization());
        assertEquals(100, s.numGpuBlocksOrZero());
        assertEquals(List.of("max_model_len (the model's max_position_embeddings)", "block_size 16",
                "enable_prefix_caching true", "gpu_memory_utilization 0.9", "long_prefill_token_threshold 0",
                "async_scheduling true"), s.defaultsApplied());
        assertEquals(dir.resolve("workload_tiny.jsonl"), run.workloadFile());
        assertEquals(2, run.workload().size());
    }

    @Test
    void measuredLatenciesCountFromQueuedWhenArrivalIsOnAnotherClock(@TempDir Path dir) throws IOException {
        MeasuredRequest m = RealRun.read(TinyRun.write(dir)).measured().get(0);
        // arrival_time 1777142838.3 (epoch) vs first_token_ts 100.0015 (monotonic): anchor queued_ts 100.0.
        assertEquals(1.5, m.ttftMs(), 1e-6);
        assertEquals(4.0, m.e2eMs(), 1e-6);
        assertEquals(1.25, m.tpotMs(), 1e-6); // (100.004 - 100.0015) / (3 - 1)
        assertEquals(0.1, m.queueingMs(), 1e-6);
    }

    @Test
    void measuredLatenciesCountFromArrivalOnTheSameClock(@TempDir Path dir) throws IOException {
        TinyRun.write(dir);
        Files.writeString(dir.resolve("requests.jsonl"), TinyRun.REQUESTS.replace("1777142838.3,", "99.9,"));
        MeasuredRequest m = RealRun.read(dir).measured().get(0);
        assertEquals(101.5, m.ttftMs(), 1e-6); // 100.0015 - 99.9
        assertEquals(0.1, m.queueingMs(), 1e-6);
    }

    @Test
    void missingFilesAreNamed(@TempDir Path dir) throws IOException {
        assertEquals(dir.resolve("nope") + ": does not exist (expected a run directory with meta.json, requests.jsonl and a"
                + " workload*.jsonl)", fails(dir.resolve("nope")));
        TinyRun.write(dir);
        Files.delete(dir.resolve("requests.jsonl"));
        assertEquals(dir.resolve("requests.jsonl") + ": missing file: the measured per-request timestamps", fails(dir));
        TinyRun.write(dir);
        Files.delete(dir.resolve("workload_tiny.jsonl"));
        assertTrue(fails(dir).startsWith(dir.resolve("workload*.jsonl") + ": missing file: the replayed workload"));
        TinyRun.write(dir);
        Files.delete(dir.resolve("meta.json"));
        assertEquals(dir.resolve("meta.json") + ": missing file: the vLLM engine settings of the run", fails(dir));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "\"enable_expert_parallel\": 1 | engine_kwargs.enable_expert_parallel: must be true or false, got 1",
        "\"pipeline_parallel_size\": 2 | engine_kwargs.pipeline_parallel_size: 2: pipeline parallelism",
        "\"quantization\": \"awq\" | engine_kwargs.quantization: awq: weights quantized so are not modelled by replay-real; valid: fp8",
        "\"kv_cache_dtype\": \"int8\" | engine_kwargs.kv_cache_dtype: int8: not a KV cache width servesim models; valid: auto, fp8, fp8_e4m3, fp8_e5m2",
        "\"dtype\": \"float32\" | engine_kwargs.dtype: \"float32\": the latency models assume 16-bit",
        "\"data_parallel_size\": 0 | engine_kwargs.data_parallel_size: must be an integer in [1, 1024] ranks",
        "\"enable_chunked_prefill\": false | engine_kwargs.enable_chunked_prefill: false: not modelled",
        "\"enforce_eager\": true | engine_kwargs.enforce_eager: true: not modelled (the replay's step times are those of an engine running CUDA graphs); valid: false",
        "\"scheduling_policy\": \"priority\" | engine_kwargs.scheduling_policy: \"priority\": the run's requests carry no priorities",
        "\"speculative_config\": {\"method\": \"eagle\"} | engine_kwargs.speculative_config: not an engine argument servesim models or knows to leave timing alone; known: async_scheduling, block_size,",
        "\"blocksize\": 32 | engine_kwargs.blocksize: not an engine argument servesim models"})
    void whatAReplayCannotModelIsRefusedNamingTheArgument(String argument, String message, @TempDir Path dir)
            throws IOException {
        TinyRun.write(dir);
        Files.writeString(dir.resolve("meta.json"), TinyRun.META.replace("\"dtype\": \"bfloat16\"", argument));
        assertTrue(fails(dir).startsWith(dir.resolve("meta.json") + " " + message), fails(dir));
    }

    @Test
    void anotherSchemaVersionOrRequestCountIsRefused(@TempDir Path dir) throws IOException {
        TinyRun.write(dir);
        Files.writeString(dir.resolve("meta.json"), TinyRun.META.replace("{\"schema_version\": 1,", "{\"schema_version\": 7,"));
        assertTrue(fails(dir).startsWith(dir.resolve("meta.json") + " schema_version: 7: replay-real reads version 1"), fails(dir));
        Files.writeString(dir.resolve("meta.json"), TinyRun.META.replace("{\"schema_version\": 1,", "{"));
        assertEquals(dir.resolve("meta.json") + " schema_version: required: the version of LLMServingSim's bench format"
                + " (bench/core) the run was recorded in, which its recorder writes; valid: 1", fails(dir));
        Files.writeString(dir.resolve("meta.json"), TinyRun.META.replace("{\"schema_version\": 1,", "{\"schema_version\": 1,"
                + " \"num_requests\": 500,"));
        assertEquals(dir.resolve("meta.json") + " num_requests: 500: but " + dir.resolve("requests.jsonl") + " holds 2 requests"
                + " (a run cut short or files of two runs)", fails(dir));
        Files.writeString(dir.resolve("meta.json"), TinyRun.META.replace("{\"schema_version\": 1,", "{\"schema_version\": 1,"
                + " \"num_requests\": 2,"));
        assertEquals(2, RealRun.read(dir).measured().size());
    }

    @Test
    void aWorkloadFileOtherThanTheOneTheRunReplayedIsRefused(@TempDir Path dir) throws Exception {
        TinyRun.write(dir);
        Path workload = dir.resolve("workload_tiny.jsonl");
        String sha = java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256")
                .digest(Files.readAllBytes(workload)));
        Files.writeString(dir.resolve("meta.json"), TinyRun.META.replace("{\"schema_version\": 1,", "{\"schema_version\": 1,"
                + " \"dataset_hash\": \"" + sha + "\","));
        assertEquals(2, RealRun.read(dir).measured().size());
        // one byte more (a trailing newline) is another file, whose requests would still match line by line
        Files.writeString(workload, Files.readString(workload) + "\n");
        String other = java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256")
                .digest(Files.readAllBytes(workload)));
        assertEquals(dir.resolve("meta.json") + " dataset_hash: " + sha + ", but " + workload + " hashes to " + other + ": it is"
                + " not the workload the run replayed (edited since, or another run's); put the run's own workload file"
                + " beside it, or remove dataset_hash from meta.json to replay this file anyway", fails(dir));
        Files.writeString(dir.resolve("meta.json"), TinyRun.META.replace("{\"schema_version\": 1,", "{\"schema_version\": 1,"
                + " \"dataset_hash\": 42,"));
        assertEquals(dir.resolve("meta.json") + " dataset_hash: must be the SHA-256 of the workload file, 64 hexadecimal"
                + " digits, got 42", fails(dir));
    }

    @Test
    void theShippedRunsRecordTheHashOfTheirWorkloadFiles() {
        // both shipped runs record dataset_hash (LLMServingSim's runner writes it); reading them checks it
        for (String run : new String[] {"validation/vllm_rtxpro6000_llama31_8b", "validation/vllm_rtxpro6000_qwen3_30b_a3b_dp2_ep"}) {
            assertEquals(300, RealRun.read(io.servesim.testing.RepoFiles.data(run)).measured().size(), run);
        }
    }

    @Test
    void theShippedDataParallelExpertParallelRunReadsBothFields() {
        EngineSettings s = RealRun.read(io.servesim.testing.RepoFiles.data(
                "validation/vllm_rtxpro6000_qwen3_30b_a3b_dp2_ep")).settings();
        assertEquals(2, s.dataParallel());
        assertTrue(s.expertParallel());
        assertEquals(1, s.tensorParallel());
    }

    @Test
    void theModelledValuesOfThoseArgumentsAreAccepted(@TempDir Path dir) throws IOException {
        TinyRun.write(dir);
        Files.writeString(dir.resolve("meta.json"), TinyRun.META.replace("\"dtype\": \"bfloat16\"", "\"dtype\": \"auto\","
                + " \"data_parallel_size\": 1, \"pipeline_parallel_size\": 1, \"enable_expert_parallel\": false,"
                + " \"quantization\": null, \"kv_cache_dtype\": \"auto\""));
        assertEquals(8, RealRun.read(dir).settings().maxNumSeqs());
        Files.writeString(dir.resolve("meta.json"), TinyRun.META.replace("\"dtype\": \"bfloat16\"", "\"enable_chunked_prefill\":"
                + " true, \"enforce_eager\": false, \"scheduling_policy\": \"fcfs\", \"seed\": 42, \"trust_remote_code\": true"));
        assertEquals(8, RealRun.read(dir).settings().maxNumSeqs(), "the modelled values, and arguments without a timing effect");
        Files.writeString(dir.resolve("meta.json"), TinyRun.META.replace("\"dtype\": \"bfloat16\"", "\"kv_cache_dtype\": \"fp8_e4m3\""));
        assertEquals(io.servesim.latency.KvCacheDtype.FP8_E4M3, RealRun.read(dir).settings().kvCache(), "an fp8 KV cache is modelled");
        Files.writeString(dir.resolve("meta.json"), TinyRun.META.replace("\"dtype\": \"bfloat16\"", "\"quantization\": \"fp8\""));
        assertEquals(io.servesim.latency.Quantization.FP8, RealRun.read(dir).settings().quantization(), "fp8 weights are modelled");
    }

    @Test
    void missingAndBadFieldsAreNamed(@TempDir Path dir) throws IOException {
        TinyRun.write(dir);
        Files.writeString(dir.resolve("meta.json"), TinyRun.META.replace("\"max_num_seqs\": 8,", ""));
        assertTrue(fails(dir).startsWith(dir.resolve("meta.json") + " engine_kwargs.max_num_seqs: required"), fails(dir));
        Files.writeString(dir.resolve("meta.json"), TinyRun.META.replace("\"max_num_seqs\": 8,", "\"max_num_seqs\": 0,"));
        assertEquals(dir.resolve("meta.json") + " engine_kwargs.max_num_seqs: must be a positive integer, got 0", fails(dir),
                "given, not missing");
        Files.writeString(dir.resolve("meta.json"), TinyRun.META.replace("\"max_num_seqs\": 8,", "\"max_num_seqs\": 8, \"block_size\": \"x\","));
        Files.writeString(dir.resolve("meta.json"), TinyRun.META.replace("\"max_num_seqs\": 8,", "\"max_num_seqs\": \"8\","));
        assertEquals(dir.resolve("meta.json") + " engine_kwargs.max_num_seqs: must be a positive integer, got \"8\"", fails(dir));
        Files.writeString(dir.resolve("meta.json"), TinyRun.META.replace("\"tensor_parallel_size\": 1,", "\"tensor_parallel_size\": 0,"));
        assertEquals(dir.resolve("meta.json") + " engine_kwargs.tensor_parallel_size: must be a positive integer, got 0", fails(dir));
        Files.writeString(dir.resolve("meta.json"), TinyRun.META.replace("\"max_num_seqs\": 8,", "\"max_num_seqs\": 8, \"block_size\": \"x\","));
        assertEquals(dir.resolve("meta.json") + " engine_kwargs.block_size: must be one of vLLM's block sizes [1, 8, 16, 32, 64, 128], got \"x\"", fails(dir));
        Files.writeString(dir.resolve("meta.json"), TinyRun.META);
        Files.writeString(dir.resolve("requests.jsonl"), TinyRun.REQUESTS.replace("\"first_token_ts\": 100.0015, ", ""));
        assertEquals(dir.resolve("requests.jsonl") + ":1: missing field first_token_ts", fails(dir));
    }

    @Test
    void workloadAndMeasurementsMustDescribeTheSameRequests(@TempDir Path dir) throws IOException {
        TinyRun.write(dir);
        Files.writeString(dir.resolve("requests.jsonl"), TinyRun.REQUESTS.lines().findFirst().orElseThrow() + "\n");
        assertEquals(dir.resolve("workload_tiny.jsonl") + ": the workload has 2 requests but requests.jsonl has 1", fails(dir));
        Files.writeString(dir.resolve("requests.jsonl"), TinyRun.REQUESTS.replace("\"output_toks\": 3", "\"output_toks\": 4"));
        assertEquals(dir.resolve("workload_tiny.jsonl") + ":1: request 1 has 32 input / 3 output tokens but requests.jsonl "
                + "request 1 (bench-0) has 32 / 4", fails(dir));
    }

    @Test
    void severalWorkloadsArePickedByDatasetPath(@TempDir Path dir) throws IOException {
        TinyRun.write(dir);
        Files.move(dir.resolve("workload_tiny.jsonl"), dir.resolve("workload_x_tiny.jsonl"));
        Files.writeString(dir.resolve("workload_other.jsonl"), "");
        assertEquals(dir.resolve("workload_x_tiny.jsonl"), RealRun.read(dir).workloadFile());
        Files.move(dir.resolve("workload_x_tiny.jsonl"), dir.resolve("workload_y.jsonl"));
        assertTrue(fails(dir).contains("several workload*.jsonl files and none named after meta.json dataset_path"));
    }
}
