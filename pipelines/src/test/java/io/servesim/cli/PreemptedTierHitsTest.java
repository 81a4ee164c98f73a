package io.servesim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Readmissions of preempted requests served from the CPU KV tier show in the tier's readmission rate and in the
 * request rows (vLLM records a request with {@code num_preemptions > 0} under {@code PrefixCacheStats.preempted_*}:
 * {@code vllm/v1/core/kv_cache_manager.py}). A GPU cache of 400 blocks (6,400 tokens) under 200 requests of 200-600
 * prompt and 200-600 output tokens at 40/s preempts; the prompts share no prefix, so first admissions hit nothing
 * (cpu_hit_rate 0) while readmissions re-find their own blocks, some in the 2,000-block CPU tier.
 */
class PreemptedTierHitsTest {
    private static final String CONFIG = "seed: 1\ndeployment: {model: meta-llama/llama-3.1-8b-instruct, hardware: H100}\n"
            + "engine: {max_num_seqs: 64, max_num_batched_tokens: 2048, block_size: 16, total_kv_blocks: 400,"
            + " kv_cpu_blocks: 2000, kv_reload: step, max_model_len: 2048}\n"
            + "workload: {aggregate_rate: 40, num_requests: 200, input_distribution: {type: uniform, params: {min: 200, max: 600}},"
            + " output_distribution: {type: uniform, params: {min: 200, max: 600}}}\n";

    @Test
    void readmissionReloadsCountInTheirTierAndInTheRows(@TempDir Path tmp) throws Exception {
        Path config = tmp.resolve("cfg.yaml");
        Files.writeString(config, CONFIG);
        Path rows = tmp.resolve("requests.parquet");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = RunCommand.run(config, rows, null, null, new ConfigOptions(), new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), false);
        assertEquals(0, code, err.toString(StandardCharsets.UTF_8));
        JsonNode run = new ObjectMapper().readTree(out.toString(StandardCharsets.UTF_8));
        JsonNode tiers = run.get("kv_tiers");
        long reloaded = tiers.get("kv_reloaded_blocks").asLong();
        assertTrue(run.get("preemptions").asLong() > 0 && reloaded > 0, run.toString());
        assertEquals(0.0, tiers.get("cpu_hit_rate").asDouble(), "first admissions share no prefix");
        double gpu = tiers.get("preempted_gpu_hit_rate").asDouble();
        double cpu = tiers.get("preempted_cpu_hit_rate").asDouble();
        assertTrue(cpu > 0, tiers.toString());
        // the two tiers' readmission rates add up to the run's readmission hit rate
        assertEquals(run.get("preempted_prefix_hit_rate").asDouble(), gpu + cpu, 1e-12);
        // every reloaded block served an admission: the rows' CPU hits, summed over admissions, are the reloaded
        // blocks x 16 tokens; their prefix hits are GPU + CPU hits
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:");
             ResultSet rs = c.createStatement().executeQuery("SELECT sum(cpu_hit_tokens), sum(prefix_hit_tokens),"
                     + " sum(gpu_hit_tokens) FROM '" + rows + "'")) {
            rs.next();
            assertEquals(reloaded * 16, rs.getLong(1));
            assertEquals(rs.getLong(2), rs.getLong(1) + rs.getLong(3));
        }
    }
}
