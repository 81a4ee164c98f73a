package io.servesim.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.servesim.config.ConfigException;
import io.servesim.config.StrictJson;
import io.servesim.metrics.RequestRecord;
import io.servesim.metrics.RunSummary;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Multimodal clients through a run: the engines encode the items their steps reach, priced by
 * {@code deployment.encoder_us_per_token} or the model's vision config, and a run that cannot price them is refused.
 */
class MultimodalEncoderRunTest {
    private static final String CONFIG = """
            seed: 3
            deployment: {model: %s, hardware: H100, tp: %d%s}
            engine: {max_model_len: 16384%s}
            workload:
              aggregate_rate: 2
              num_requests: 20
              arrival: {process: constant}
              output_distribution: {type: constant, params: {value: 50}}
              multimodal:
                text_distribution: {type: constant, params: {value: 100}}
                image_distribution: {type: constant, params: {value: 576}}
                image_count_distribution: {type: constant, params: {value: 2}}
                %s
              reasoning:
                reason_ratio_distribution: {type: constant, params: {value: 0}}
                multi_turn: {max_rounds: 2, context_growth: accumulate, single_session: true}
            """;
    private static final String LLAMA = "meta-llama/llama-3.1-8b-instruct";
    private static final String SCOUT = "RedHatAI/Llama-4-Scout-17B-16E-Instruct-FP8-dynamic";

    private static RunPlan plan(String model, int tp, String deploymentExtra, String engineExtra, String multimodalExtra) {
        try {
            var cfg = SimConfigLoader.bind(StrictJson.yaml().readTree(CONFIG.formatted(model, tp, deploymentExtra,
                    engineExtra, multimodalExtra)), Path.of("."));
            return RunPlan.prepare(cfg);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static List<RequestRecord> turns(String deploymentExtra, List<RunSummary> summary) {
        List<RequestRecord> out = new ArrayList<>();
        summary.add(plan(LLAMA, 1, deploymentExtra, "", "").run(out::add));
        out.sort(Comparator.comparingInt(RequestRecord::turnIndex));
        return out;
    }

    /**
     * A message is 100 text tokens and two 576-token images at [100, 676) and [676, 1252) (1,252 tokens). The second
     * turn carries the first's prompt and 50 output tokens (1,302), then a new message with images at [1402, 1978) and
     * [1978, 2554); its prefix hit (the first turn's full blocks but the last token's: floor(1,301 / 16) = 81 blocks,
     * 1,296 tokens) covers the first turn's images, so only the new two are encoded: 4 items, 4 x 576 = 2,304 encoder
     * tokens in all, none from the encoder cache. At 10 us per encoder token each turn's prefill step (one step: 1,252
     * and 2,554 - 1,296 = 1,258 tokens, both under the 2,048-token budget) takes 1,152 x 10 = 11,520 us longer than at 0, and so does its TTFT.
     */
    @Test
    void aSessionEncodesEachItemOnceAndPaysForItInTheStepThatReachesIt() {
        List<RunSummary> summaries = new ArrayList<>();
        List<RequestRecord> free = turns(", encoder_us_per_token: 0", summaries);
        List<RequestRecord> priced = turns(", encoder_us_per_token: 10", summaries);
        RunSummary s = summaries.get(1);
        assertEquals(4, s.count("encoder_items"));
        assertEquals(2_304, s.count("encoder_tokens"));
        assertEquals(0, s.count("encoder_cache_hits"));
        assertEquals(List.of(1252, 2554), priced.stream().map(RequestRecord::inputTokens).toList());
        assertEquals(List.of(0, 1296), priced.stream().map(RequestRecord::prefixHitTokens).toList());
        for (int t = 0; t < 2; t++) {
            assertEquals(free.get(t).ttftUs() + 11_520, priced.get(t).ttftUs(), "turn " + t);
        }
    }

    /**
     * P/D: the prefill pool encodes (its stage of the request carries the items), the decode pool receives the KV and
     * encodes nothing; the same 4 items and 2,304 tokens as the aggregated run, each turn's prefill 11,520 us longer at
     * 10 us per token (the same prefill steps: each turn's prompt is one chunk on an idle prefill instance).
     */
    @Test
    void thePrefillPoolOfAPdDeploymentEncodes() {
        String pd = ", architecture: pd, pd: {prefill: {replicas: 1}, decode: {replicas: 1}, decider: always,"
                + " transfer: {latency: 1ms, bandwidth: 50GB/s}}";
        List<RequestRecord> free = new ArrayList<>();
        plan(LLAMA, 1, pd + ", encoder_us_per_token: 0", "", "").run(free::add);
        List<RequestRecord> priced = new ArrayList<>();
        RunSummary s = plan(LLAMA, 1, pd + ", encoder_us_per_token: 10", "", "").run(priced::add);
        free.sort(Comparator.comparingInt(RequestRecord::turnIndex));
        priced.sort(Comparator.comparingInt(RequestRecord::turnIndex));
        assertEquals(4, s.count("encoder_items"));
        assertEquals(2_304, s.count("encoder_tokens"));
        for (int t = 0; t < 2; t++) {
            assertEquals(free.get(t).ttftUs() + 11_520, priced.get(t).ttftUs(), "turn " + t);
        }
    }

    /** Llama-4-Scout's vision_config prices the encoder without a setting, and says so in the description. */
    @Test
    void aModelWithAVisionConfigPricesItsEncoderByTheRoofline() {
        RunSummary s = plan(SCOUT, 2, ", latency_model: roofline", "", "").run(r -> { });
        assertEquals(4, s.count("encoder_items"));
        assertTrue(s.text("latency_description").contains("multimodal encoder: redhatai/llama-4-scout-17b-16e-instruct"
                + "-fp8-dynamic's vision encoder (34 layers of 1408, 144 tokens per 336px tile) by the roofline on H100 x"
                + " TP2"), s.text("latency_description"));
    }

    @Test
    void anEncoderThatCannotBePricedIsRefusedAtTheSetting() {
        ConfigException text = assertThrows(ConfigException.class, () -> plan(LLAMA, 1, "", "", ""));
        assertEquals("deployment.encoder_us_per_token", text.problems().get(0).path());
        assertTrue(text.getMessage().contains("meta-llama/llama-3.1-8b-instruct's config.json has no vision_config"),
                text.getMessage());
        String audio = "audio_distribution: {type: constant, params: {value: 50}}\n"
                + "    audio_count_distribution: {type: constant, params: {value: 1}}";
        ConfigException scoutAudio = assertThrows(ConfigException.class,
                () -> plan(SCOUT, 2, ", latency_model: roofline", "", audio));
        assertTrue(scoutAudio.getMessage().contains("deployment.encoder_us_per_token: required: the workload's clients"
                + " send image, audio or video items (workload clients[].multimodal), and some are audio or video, which"
                + " redhatai/llama-4-scout-17b-16e-instruct-fp8-dynamic's vision_config (images only) cannot price, so the"
                + " encoder's cost cannot be derived; give the encoder's GPU time per item token, in [0, 1000000] us"),
                scoutAudio.getMessage());
    }

    @Test
    void anExpertParallelGroupIsRefusedWithItems() {
        ConfigException e = assertThrows(ConfigException.class, () -> plan("qwen/qwen3-30b-a3b", 1,
                ", dp: 2, ep: true, latency_model: roofline, encoder_us_per_token: 10", "", ""));
        assertEquals("deployment.ep", e.problems().get(0).path());
        assertTrue(e.getMessage().contains("valid with them: false"), e.getMessage());
    }

    /**
     * The SGLang core fetches a request's item embeddings under one key for all its items: the first turn encodes its
     * two images (1,152 tokens); the second turn's items are the first's two and two new ones, a set never seen, so its
     * prefill encodes all four (2,304 tokens) although its prefix (1,301 tokens of the first turn in the radix tree)
     * covers the first two: 6 items, 3,456 tokens, no hit. At 10 us per token the turns' TTFTs grow by 11,520 and
     * 23,040 us.
     */
    @Test
    void theSglangCoreEncodesARequestsItemsTogether() {
        List<RequestRecord> free = new ArrayList<>();
        plan(LLAMA, 1, ", encoder_us_per_token: 0", ", kind: sglang", "").run(free::add);
        List<RequestRecord> priced = new ArrayList<>();
        RunSummary s = plan(LLAMA, 1, ", encoder_us_per_token: 10", ", kind: sglang", "").run(priced::add);
        free.sort(Comparator.comparingInt(RequestRecord::turnIndex));
        priced.sort(Comparator.comparingInt(RequestRecord::turnIndex));
        assertEquals(6, s.count("encoder_items"));
        assertEquals(3_456, s.count("encoder_tokens"));
        assertEquals(0, s.count("encoder_cache_hits"));
        assertEquals(List.of(0, 1301), priced.stream().map(RequestRecord::prefixHitTokens).toList());
        assertEquals(free.get(0).ttftUs() + 11_520, priced.get(0).ttftUs());
        assertEquals(free.get(1).ttftUs() + 23_040, priced.get(1).ttftUs());
    }
}
