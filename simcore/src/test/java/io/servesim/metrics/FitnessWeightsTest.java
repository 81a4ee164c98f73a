package io.servesim.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.servesim.config.ConfigException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Fitness keys are catalog columns, each normalised by its declared rule; former names are refused naming the new ones. */
class FitnessWeightsTest {
    /**
     * A run of 200 injected requests over 100 s: 150 completed, 10 rejected, 120 meeting their SLO; TTFT p99 500 ms,
     * mean 250 ms; a fleet of 2 replicas for 3600 s (7200 replica-seconds) that cost 2 USD.
     */
    static RunSummary summary() {
        Distribution ttft = new Distribution(150, 250, 10, 200, 400, 450, 500, 600);
        Distribution none = Distribution.EMPTY;
        Map<String, Double> byState = new LinkedHashMap<>();
        byState.put("ready", 7200.0);
        ScalingSummary scaling = new ScalingSummary(false, 0, 0, 0, 0, 0, 0, byState, 2.0, Double.NaN, Double.NaN,
                Double.NaN, 2, 2, List.of(new ReplicaCounts(0, 0, 0, 0, 2, 0)));
        ClusterSummary cluster = new ClusterSummary(2, new long[] {100, 100}, 0, 0, 120, 0.6, 1.2, 1, 0, 0,
                Map.of(), Map.of());
        KvTierSummary tiers = new KvTierSummary(0, 0.25, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
        return RunSummary.builder().put("latency_model", "blackbox").put("latency_description", "test")
                .put("latency_calibration_note", "").put("total_kv_blocks", 1000L).put("injected", 200L)
                .put("completed", 150L).put("dropped", 0L).put("rejected", 10L).put("unfinished", 40L)
                .put("ttft_ms", ttft).put("e2e_ms", none).put("client_ttft_ms", none).put("client_e2e_ms", none)
                .put("tpot_ms", none).put("itl_ms", none).put("scheduling_delay_ms", none).put("queueing_delay_ms",
                        none)
                .put("ttfat_ms", none).put("client_ttfat_ms", none).put("duration_s", 100.0).put("throughput_rps", 1.5)
                .put("offered_rps", 2.5)
                .put("input_tokens_per_s", 300.0).put("output_tokens_per_s", 150.0).put("answer_tokens_per_s", 150.0)
                .put("preemptions", 0L).put("kv_allocation_failures", 0L).put("prefix_hit_rate", 0.25)
                .put("preempted_prefix_hit_rate", 0.0).put("kv_utilization_mean", 0.5).put("kv_utilization_peak", 0.9)
                .put("batch_size_mean", 8.0).put("steps", 1000L).put("events_processed", 5000L)
                .put("skipped_trace_lines", 0L).put("fitness", Double.NaN).put("spec_verify_steps", 0L)
                .put("spec_draft_tokens", 0L).put("spec_accepted_tokens", 0L).put("encoder_items", 0L)
                .put("encoder_tokens", 0L).put("encoder_cache_hits", 0L)
                .kvTiers(tiers).cluster(cluster).autoscaling(scaling).pd(PdSummary.aggregated(2)).build();
    }

    /**
     * Each rule on the run above: throughput_rps over the offered rate (200 injected over an 80 s arrival window, 2.5
     * requests/s) = 1.5 / 2.5 = 0.6; goodput_rps likewise 1.2 / 2.5 = 0.48; ttft_p99_ms 1 / (1 + 500 / 1000) = 2/3; ttft_mean_ms 1 / (1 + 250 / 1000)
     * = 0.8; rejection_rate 10 / 200 = 0.05, scored 1 - 0.05 = 0.95; prefix_hit_rate as it is, 0.25; cost_usd
     * 1 / (1 + 2 / 1) = 1/3; replica_seconds 1 / (1 + 7200 / 3600) = 1/3.
     */
    @Test
    void eachKeyIsNormalisedByItsRule() {
        RunSummary s = summary();
        assertEquals(0.6, FitnessWeights.normalised("throughput_rps", s), 1e-12);
        assertEquals(0.48, FitnessWeights.normalised("goodput_rps", s), 1e-12);
        assertEquals(2.0 / 3, FitnessWeights.normalised("ttft_p99_ms", s), 1e-12);
        assertEquals(0.8, FitnessWeights.normalised("ttft_mean_ms", s), 1e-12);
        assertEquals(0.95, FitnessWeights.normalised("rejection_rate", s), 1e-12);
        assertEquals(0.25, FitnessWeights.normalised("prefix_hit_rate", s), 1e-12);
        assertEquals(1.0 / 3, FitnessWeights.normalised("cost_usd", s), 1e-12);
        assertEquals(1.0 / 3, FitnessWeights.normalised("replica_seconds", s), 1e-12);
    }

    /**
     * A served rate scores its share of the offered rate, at most 1, and without an arrival window (every request at one
     * instant: offered_rps undefined) the share of requests served: an overloaded run that completes all 200 requests,
     * but at 1.0 request/s against 2.5 offered, scores 0.4, not 1; a run above the offered rate (every request served
     * within the window) scores 1; with no window, 150 completed / 200 injected = 0.75.
     */
    @Test
    void aServedRateScoresItsShareOfTheOfferedRate() {
        RunSummary overloaded = summary().toBuilder().put("completed", 200L).put("unfinished", 0L)
                .put("throughput_rps", 1.0).build();
        assertEquals(0.4, FitnessWeights.normalised("throughput_rps", overloaded), 1e-12);
        assertEquals(1.0, FitnessWeights.normalised("throughput_rps", summary().toBuilder().put("throughput_rps", 2.6)
                .build()), 1e-12);
        assertEquals(0.75, FitnessWeights.normalised("throughput_rps", summary().toBuilder().put("offered_rps", Double.NaN)
                .build()), 1e-12);
    }

    /**
     * The weighted sum: 1 x cost (1/3) + 0.5 x replica-seconds (1/3) = 0.5; an undefined metric (no TPOT: an empty
     * distribution) counts 0, so adding tpot_p99_ms:2 leaves 0.5.
     */
    @Test
    void fitnessIsTheWeightedSumAndAnUndefinedMetricCountsZero() {
        RunSummary s = summary();
        assertEquals(0.5, FitnessWeights.parse("cost_usd:1,replica_seconds:0.5", "--fitness-weights").score(s), 1e-12);
        assertEquals(0.5, FitnessWeights.parse("cost_usd:1,replica_seconds:0.5,tpot_p99_ms:2", "x").score(s), 1e-12);
    }

    @Test
    void aFormerNameWorksAsTheNewOneWithANoteAndAKeyWeightedTwiceIsRefused() {
        RunSummary s = summary();
        for (Renamed r : Renamed.ALL.stream().filter(r -> r.where() == Renamed.Where.FITNESS).toList()) {
            FitnessWeights old = FitnessWeights.parse(r.old() + ":1", "fitness_weights");
            assertEquals(FitnessWeights.parse(r.now() + ":1", "fitness_weights").weights(), old.weights(), r.old());
            assertEquals(List.of("fitness_weights: '" + r.old() + "' is now named '" + r.now() + "' (the old name still"
                    + " works; write the new one)"), old.notes());
        }
        // cost_usd at 2 USD scores 1/3 whichever way it is reached
        assertEquals(1.0 / 3, FitnessWeights.parse("cost_usd:1", "x").score(s), 1e-12);
        ConfigException twice = assertThrows(ConfigException.class,
                () -> FitnessWeights.parse("p99_ttft:1,ttft_p99_ms:2", "fitness_weights"));
        assertTrue(twice.getMessage().contains("'ttft_p99_ms' is weighted twice"), twice.getMessage());
        ConfigException unknown = assertThrows(ConfigException.class, () -> FitnessWeights.parse("speed:1", "fitness_weights"));
        assertTrue(unknown.getMessage().contains("unknown fitness metric 'speed'; valid: rejection_rate, ttft_mean_ms"),
                unknown.getMessage());
    }

    @Test
    void weightsThatAreAllZeroRankNothingAndAreRefused() {
        ConfigException e = assertThrows(ConfigException.class,
                () -> FitnessWeights.parse("ttft_p99_ms:0,e2e_p99_ms:0", "fitness_weights"));
        assertTrue(e.getMessage().contains("fitness_weights: every weight is 0"),
                e.getMessage());
        // one zero beside a positive weight is fine: that metric is simply not weighed
        assertEquals(2, FitnessWeights.parse("ttft_p99_ms:0,e2e_p99_ms:1", "x").weights().size());
    }
}
