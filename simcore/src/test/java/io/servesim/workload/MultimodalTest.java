package io.servesim.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.servesim.metrics.RequestRecord;
import io.servesim.run.LinearLatency;
import io.servesim.run.Runs;
import io.servesim.workload.dist.DistributionSpec;
import io.servesim.workload.multimodal.MultimodalSpec;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Multimodal clients run through the engine: a message's text and items add to the prompt, items are content of their
 * own (cache hits only where a session's history repeats them). Latency {@code 1000 + 10 x prefill tokens + 100 x decode
 * tokens} us per step, 16-token blocks, the engine idle at every arrival.
 */
class MultimodalTest {
    private static final String VISION = """
            aggregate_rate: 2
            num_requests: 100
            arrival: {process: constant}
            output_distribution: {type: constant, params: {value: 50}}
            multimodal:
              text_distribution: {type: constant, params: {value: 100}}
              image_distribution: {type: constant, params: {value: 576}}
              image_count_distribution: {type: constant, params: {value: 2}}
              audio_distribution: {type: constant, params: {value: 50}}
              audio_count_distribution: {type: constant, params: {value: 1}}
            reasoning:
              reason_ratio_distribution: {type: constant, params: {value: 0}}
              multi_turn: {max_rounds: 2, context_growth: %s, single_session: true}
            """;

    private static List<RequestRecord> turns(String growth) {
        Runs.Result res = Runs.run(Runs.engine(100_000), LinearLatency.steps(1000, 10, 100), "fcfs", "constant",
                Yaml.workload(VISION.formatted(growth)).open(1, 0), 0);
        return res.records().stream().sorted(Comparator.comparingInt(RequestRecord::turnIndex)).toList();
    }

    @Test
    void itemsAddToThePromptAndTheHistoryRepeatsThem() {
        // A message: 100 text + 2 x 576 image + 50 audio tokens = 1302, 1202 of them items'. Round 1 carries round 0's
        // prompt and 50 output tokens, then a new message: 1302 + 50 + 1302 = 2654 tokens, 2404 items'. The cache holds
        // round 0's prompt and output but its last token: floor(1351 / 16) = 84 blocks = 1344 tokens, items included.
        // Prefill: 1302 tokens, 1000 + 13020 = 14020 us; then 2654 - 1344 = 1310 tokens, 14100 us.
        List<RequestRecord> t = turns("accumulate");
        assertEquals(List.of(1302, 2654), t.stream().map(RequestRecord::inputTokens).toList());
        assertEquals(List.of(1202, 2404), t.stream().map(RequestRecord::mediaTokens).toList());
        assertEquals(List.of(0, 1344), t.stream().map(RequestRecord::prefixHitTokens).toList());
        assertEquals(List.of(14_020L, 14_100L), t.stream().map(RequestRecord::ttftUs).toList());
    }

    @Test
    void newItemsAreNewContent() {
        // context_growth none: every message is fresh, its items too: same lengths, no cache hits
        List<RequestRecord> t = turns("none");
        assertEquals(List.of(1302, 1302), t.stream().map(RequestRecord::inputTokens).toList());
        assertEquals(List.of(0, 0), t.stream().map(RequestRecord::prefixHitTokens).toList());
    }

    @Test
    void aMessageDrawsInBlisOrderAndHasAtLeastOneToken() {
        // no text, no images: BLIS's minimum of one token; the segments are the text, then each item in order
        MultimodalSpec none = new MultimodalSpec(null,
                new MultimodalSpec.Modality(DistributionSpec.constant(576), DistributionSpec.constant(0)), null, null);
        MultimodalSpec.Message empty = none.sample(new SplittableRandom(1), 7);
        assertEquals(1, empty.length());
        assertEquals(0, empty.mediaTokens());
        MultimodalSpec two = new MultimodalSpec(DistributionSpec.constant(3),
                new MultimodalSpec.Modality(DistributionSpec.constant(576), DistributionSpec.constant(2)), null,
                new MultimodalSpec.Modality(DistributionSpec.constant(100), DistributionSpec.constant(1)));
        MultimodalSpec.Message m = two.sample(new SplittableRandom(1), 7);
        assertEquals(List.of(3, 576, 576, 100), java.util.Arrays.stream(m.lengths()).boxed().toList());
        assertEquals(1252, m.mediaTokens());
        assertEquals(4, java.util.Arrays.stream(m.ids()).distinct().count());
    }
}
