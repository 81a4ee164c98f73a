package io.servesim.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.servesim.engine.SpecDecodeConfig;
import io.servesim.run.RunPlan;
import io.servesim.run.SimConfig;
import io.servesim.run.SimConfigLoader;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code engine.speculative}: binding, and every refusal naming its path, the valid values and why. */
class SpeculativeConfigTest {
    private static final String WORKLOAD = "workload: {aggregate_rate: 1, num_requests: 5, input_distribution: {type: constant,"
            + " params: {value: 100}}, output_distribution: {type: constant, params: {value: 10}}}\n";
    private static final String DEPLOYMENT = "deployment: {model: meta-llama/llama-3.1-8b-instruct, hardware: H100,"
            + " latency_model: roofline}\n" + WORKLOAD;

    private static SimConfig bind(String engine) throws Exception {
        return SimConfigLoader.bind(StrictJson.yaml().readTree(DEPLOYMENT + "engine: " + engine), Path.of("."));
    }

    private static List<String> problems(String engine) {
        ConfigException e = assertThrows(ConfigException.class, () -> RunPlan.prepare(bind(engine)));
        return e.problems().stream().map(ConfigException.Problem::toString).toList();
    }

    /** Some problem of {@code p} starts with {@code prefix}. */
    private static void assertStarts(List<String> p, String prefix) {
        assertTrue(p.stream().anyMatch(m -> m.startsWith(prefix)), p.toString());
    }

    @Test
    void bindsARateOrAVectorAndIsOffWhenAbsent() throws Exception {
        assertEquals(SpecDecodeConfig.OFF, bind("{max_num_seqs: 8}").engine().speculative());
        SpecDecodeConfig eagle = bind("{speculative: {method: eagle, num_speculative_tokens: 3, acceptance_rate: 0.5}}")
                .engine().speculative();
        assertEquals(SpecDecodeConfig.Method.EAGLE, eagle.method());
        assertEquals(List.of(0.5, 0.25, 0.125), eagle.rates());
        assertEquals(3, eagle.lookaheadTokens());
        SpecDecodeConfig draft = bind("{speculative: {method: draft, num_speculative_tokens: 2, acceptance_rates: [0.9, 0.6],"
                + " draft_model: qwen/qwen3-0.6b}}").engine().speculative();
        assertEquals(List.of(0.9, 0.6), draft.rates());
        assertEquals("qwen/qwen3-0.6b", draft.draftModel());
        assertEquals(0, bind("{speculative: {method: ngram, num_speculative_tokens: 4, acceptance_rate: 0.3}}").engine()
                .speculative().lookaheadTokens());
    }

    @Test
    void refusesWhatVllmWouldNotRunNamingThePath() {
        List<String> p = problems("{speculative: {method: medusa, num_speculative_tokens: 0, acceptance_rate: 1.5}}");
        assertTrue(p.stream().anyMatch(m -> m.startsWith("engine.speculative.method: unknown speculative method 'medusa'")
                && m.contains("draft, eagle, mtp, ngram")), p.toString());
        assertTrue(p.stream().anyMatch(m -> m.startsWith("engine.speculative.num_speculative_tokens: must be in [1, 16]"
                + " tokens, got 0 (beyond 16")), p.toString());
        assertStarts(p, "engine.speculative.acceptance_rate: must be in [0, 1], got 1.5");
        p = problems("{speculative: {method: eagle, num_speculative_tokens: 3, acceptance_rates: [0.8, 0.9]}}");
        assertTrue(p.contains("engine.speculative.acceptance_rates: must hold num_speculative_tokens = 3 rates, one per"
                + " draft position; got 2"), p.toString());
        p = problems("{speculative: {method: eagle, num_speculative_tokens: 2, acceptance_rates: [0.5, 0.7]}}");
        assertStarts(p, "engine.speculative.acceptance_rates[1]: must be <="
                + " acceptance_rates[0] = 0.5, got 0.7");
        p = problems("{speculative: {method: eagle, num_speculative_tokens: 2, acceptance_rates: [0.5, -1]}}");
        assertStarts(p, "engine.speculative.acceptance_rates[1]: must be in [0, 1]");
        p = problems("{speculative: {method: eagle, num_speculative_tokens: 2, acceptance_rate: 0.5, acceptance_rates: [0.5, 0.2]}}");
        assertStarts(p, "engine.speculative.acceptance_rates: give acceptance_rate");
        p = problems("{speculative: {method: eagle, num_speculative_tokens: 2}}");
        assertStarts(p, "engine.speculative.acceptance_rate: required");
        p = problems("{speculative: {num_speculative_tokens: 2, acceptance_rate: 0.5}}");
        assertTrue(p.contains("engine.speculative.method: required: one of draft, eagle, mtp, ngram"), p.toString());
        p = problems("{speculative: {method: draft, num_speculative_tokens: 2, acceptance_rate: 0.5}}");
        assertStarts(p, "engine.speculative.draft_model: required with method draft");
        p = problems("{speculative: {method: mtp, num_speculative_tokens: 2, acceptance_rate: 0.5, draft_model: x}}");
        assertStarts(p, "engine.speculative.draft_model: applies only to method draft");
        p = problems("{speculative: {method: eagle, num_speculative_tokens: 2, acceptance_rate: 0.5, tree: true}}");
        assertStarts(p, "engine.speculative.tree: unknown key; valid keys here:");
    }

    @Test
    void aDraftModelMustBeKnownAndShareTheVocabulary() {
        List<String> p = problems("{speculative: {method: draft, num_speculative_tokens: 2, acceptance_rate: 0.5,"
                + " draft_model: no-such-model}}");
        assertStarts(p, "engine.speculative.draft_model: unknown model 'no-such-model';"
                + " bundled: ");
        p = problems("{speculative: {method: draft, num_speculative_tokens: 2, acceptance_rate: 0.5,"
                + " draft_model: meta-llama/llama-2-7b-hf}}");
        assertTrue(p.stream().anyMatch(m -> m.startsWith("engine.speculative.draft_model: ") && m.contains("vocabulary of 32000")
                && m.contains("128256")), p.toString());
    }

    /**
     * The drafter's memory comes out of the KV cache the GPU-memory estimate gives: B blocks of 16 tokens at kv bytes
     * per token shrink to floor((B x 16 x kv - W) / (16 x (kv + kv_d))): EAGLE, one of the 32 layers (W = weights / 32,
     * kv_d = kv / 32); a Llama-3.1-8B draft model for Llama-3.1-70B (its weights and KV per token); n-gram nothing.
     */
    @Test
    void aDrafterTakesItsMemoryFromTheKvCache() throws Exception {
        var arch = io.servesim.latency.ModelCatalog.builtIn().architecture(
                io.servesim.latency.ModelCatalog.builtIn().find("meta-llama/llama-3.1-8b-instruct").orElseThrow(), "m");
        int plain = RunPlan.prepare(bind("{max_num_seqs: 64}")).engineConfig().totalKvBlocks();
        long kv = arch.kvBytesPerTokenPerGpu(1);
        int eagle = RunPlan.prepare(bind("{max_num_seqs: 64, speculative: {method: eagle, num_speculative_tokens: 3,"
                + " acceptance_rate: 0.7}}")).engineConfig().totalKvBlocks();
        assertEquals((int) Math.floor(((double) plain * 16 * kv - arch.weightBytes() / 32) / (16.0 * (kv + kv / 32))), eagle);
        assertTrue(eagle < plain);
        assertEquals(plain, RunPlan.prepare(bind("{max_num_seqs: 64, speculative: {method: ngram, num_speculative_tokens: 3,"
                + " acceptance_rate: 0.7}}")).engineConfig().totalKvBlocks());
        assertEquals(9000, RunPlan.prepare(bind("{total_kv_blocks: 9000, speculative: {method: eagle, num_speculative_tokens:"
                + " 3, acceptance_rate: 0.7}}")).engineConfig().totalKvBlocks(), "a given capacity stands");
        String big = "deployment: {model: meta-llama/llama-3.1-70b-instruct, hardware: H100, tp: 4, latency_model: roofline}\n"
                + WORKLOAD + "engine: ";
        int plain70 = RunPlan.prepare(SimConfigLoader.bind(StrictJson.yaml().readTree(big + "{max_num_seqs: 64}"), Path.of(".")))
                .engineConfig().totalKvBlocks();
        RunPlan drafted = RunPlan.prepare(SimConfigLoader.bind(StrictJson.yaml().readTree(big + "{max_num_seqs: 64,"
                + " speculative: {method: draft, draft_model: meta-llama/llama-3.1-8b-instruct, num_speculative_tokens: 4,"
                + " acceptance_rate: 0.7}}"), Path.of(".")));
        var big70 = io.servesim.latency.ModelCatalog.builtIn().architecture(
                io.servesim.latency.ModelCatalog.builtIn().find("meta-llama/llama-3.1-70b-instruct").orElseThrow(), "m");
        long kv70 = big70.kvBytesPerTokenPerGpu(4);
        assertEquals((int) Math.floor(((double) plain70 * 16 * kv70 - arch.weightBytes() / 4)
                / (16.0 * (kv70 + arch.kvBytesPerTokenPerGpu(4)))), drafted.engineConfig().totalKvBlocks());
        assertTrue(drafted.latencyModel().describe().contains("draft model meta-llama/llama-3.1-8b-instruct"),
                drafted.latencyModel().describe());
    }
}
