package io.servesim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.servesim.testing.RepoFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code servesim config --effective}: the values a run would bind, each with where it came from. */
class ConfigCommandTest {
    /** The line of {@code path} in the listing, its columns squeezed to single spaces. */
    private static String line(String listing, String path) {
        return Arrays.stream(listing.split("\n")).map(l -> l.trim().replaceAll("\\s+", " "))
                .filter(l -> l.startsWith(path + " ")).findFirst().orElse("(no line for " + path + ")");
    }

    @Test
    void workloadFlagsShowOverAWorkloadFileAsRunAppliesThem(@TempDir Path dir) throws IOException {
        // agentic-mix.yaml sets aggregate_rate 2 and leaves num_requests to the horizon; run applies --rate and
        // --num-requests to a workload file after binding it, so the listing must show them, as flags
        Path cfg = Files.writeString(dir.resolve("c.yaml"), "deployment: {model: meta-llama/llama-3.1-8b-instruct,"
                + " hardware: H100}\nworkload: " + RepoFiles.path("sweeps/workloads/agentic-mix.yaml") + "\n");
        CliRun.Result flagged = CliRun.exec("config", "--effective", "-c", cfg.toString(), "--rate", "0.5",
                "--num-requests", "50");
        assertEquals(0, flagged.code(), flagged.err());
        assertEquals("workload.aggregate_rate 0.5 flag", line(flagged.out(), "workload.aggregate_rate"));
        assertEquals("workload.num_requests 50 flag", line(flagged.out(), "workload.num_requests"));
        CliRun.Result plain = CliRun.exec("config", "--effective", "-c", cfg.toString());
        assertEquals("workload.aggregate_rate 2 file", line(plain.out(), "workload.aggregate_rate"));
        assertTrue(line(plain.out(), "workload.num_requests").endsWith(" default"), plain.out());
    }

    @Test
    void derivedSettingsShowTheValuesTheRunResolves() {
        // Llama-3.1-8B on an H100 at TP 1: auto takes BLIS's trained coefficients, whose runs reported 29,205 KV blocks;
        // max_model_len is the model's max_position_embeddings, 131,072; the blackbox model's alphas price the API server
        CliRun.Result r = CliRun.exec("config", "--effective", "-c", RepoFiles.path("sweeps/configs/llama8b-h100.yaml").toString());
        assertEquals(0, r.code(), r.err());
        assertEquals("engine.total_kv_blocks 29205 (trained coefficients (total_kv_blocks)) derived",
                line(r.out(), "engine.total_kv_blocks"));
        assertEquals("engine.max_model_len 131072 derived", line(r.out(), "engine.max_model_len"));
        assertEquals("deployment.latency_model auto: blackbox file", line(r.out(), "deployment.latency_model"));
        assertEquals("frontend.enabled off derived", line(r.out(), "frontend.enabled"));
        CliRun.Result flags = CliRun.exec("config", "--effective", "-c", RepoFiles.path("sweeps/configs/llama8b-h100.yaml")
                .toString(), "--total-kv-blocks", "50000", "--latency-model", "roofline");
        assertEquals("engine.total_kv_blocks 50000 flag", line(flags.out(), "engine.total_kv_blocks"));
        assertEquals("frontend.enabled on derived", line(flags.out(), "frontend.enabled"));
        // P/D: each pool's, as validate prints them
        CliRun.Result pd = CliRun.exec("config", "--effective", "-c", RepoFiles.path("sweeps/configs/llama8b-h100-pd.yaml")
                .toString());
        assertEquals(0, pd.code(), pd.err());
        assertEquals("deployment.pd.decode.engine.total_kv_blocks 29205 derived",
                line(pd.out(), "deployment.pd.decode.engine.total_kv_blocks"));
        assertEquals("deployment.pd.prefill.latency_model blackbox derived", line(pd.out(), "deployment.pd.prefill.latency_model"));
        assertEquals("engine.max_model_len each P/D pool's, below derived", line(pd.out(), "engine.max_model_len"));
    }
}
