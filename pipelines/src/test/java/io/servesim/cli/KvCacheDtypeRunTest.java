package io.servesim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

/** {@code servesim run --kv-cache-dtype}: the fp8 KV cache from the command line; bad widths and weights refused by name. */
class KvCacheDtypeRunTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static JsonNode summary(String... extra) throws Exception {
        String[] base = {"run", "--model", "meta-llama/llama-3.1-8b-instruct", "--hardware", "H100", "--latency-model",
                "roofline", "--rate", "4", "--num-requests", "40"};
        String[] args = new String[base.length + extra.length];
        System.arraycopy(base, 0, args, 0, base.length);
        System.arraycopy(extra, 0, args, base.length, extra.length);
        CliRun.Result r = CliRun.exec(args);
        assertEquals(0, r.code(), r.err());
        return JSON.readTree(r.out());
    }

    @Test
    void fp8HoldsTwiceTheBlocksAndTheSummarySaysWhy() throws Exception {
        // KvCacheDtypeTest: the same GPU memory at 1 byte per element holds 2 x (or 2 x + 1) the bf16 blocks
        JsonNode bf16 = summary();
        JsonNode fp8 = summary("--kv-cache-dtype", "fp8");
        long blocks = bf16.path("total_kv_blocks").asLong();
        long fp8Blocks = fp8.path("total_kv_blocks").asLong();
        assertTrue(fp8Blocks == 2 * blocks || fp8Blocks == 2 * blocks + 1, blocks + " then " + fp8Blocks);
        assertTrue(fp8.path("latency_description").asText().contains("KV cache at 1 byte(s) per element"),
                fp8.path("latency_description").asText());
    }

    @Test
    void aWidthNotModelledIsRefusedWithTheChoices() throws Exception {
        CliRun.Result r = CliRun.exec("run", "--model", "meta-llama/llama-3.1-8b-instruct", "--hardware", "H100",
                "--kv-cache-dtype", "int8");
        assertEquals(2, r.code(), r.err());
        assertTrue(r.err().contains("deployment.kv_cache_dtype") && r.err().contains("auto, fp8, fp8_e4m3, fp8_e5m2"), r.err());
        CliRun.Result q = CliRun.exec("run", "--model", "meta-llama/llama-3.1-8b-instruct", "--hardware", "H100",
                "--quantization", "awq");
        assertEquals(2, q.code(), q.err());
        assertTrue(q.err().contains("deployment.quantization") && q.err().contains("auto, fp8"), q.err());
    }
}
