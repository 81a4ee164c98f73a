package io.servesim.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.servesim.engine.EngineConfig;
import io.servesim.engine.KvTierConfig;
import io.servesim.metrics.RequestRecord;
import io.servesim.workload.WorkloadSpec;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * Invariants on random engine configs and workloads. Every run executes with assertions on, so
 * the engine's debug checks (INV-4 KV conservation after every step, INV-8 work conservation,
 * INV-5 causality of every leaving request) and the kernel's INV-3 clock guard and INV-1
 * conservation at the end are exercised; here the records are checked again from outside and
 * INV-6 determinism by a second identical run.
 */
class EngineInvariantPropertyTest {
    private static final String[] SCHEDULERS = {"fcfs", "priority-fcfs", "sjf", "reverse-priority"};
    private static final String[] PRIORITIES = {"constant", "slo-based", "inverted-slo"};

    @Property(tries = 60)
    void invariantsHoldOnRandomConfigs(@ForAll @IntRange(min = 1, max = 64) int maxNumSeqs,
                                       @ForAll @IntRange(min = 16, max = 4096) int maxBatched,
                                       @ForAll @IntRange(min = 0, max = 1024) int threshold,
                                       @ForAll @IntRange(min = 8, max = 2000) int kvBlocks,
                                       @ForAll @IntRange(min = 0, max = 3) int blockSizeIndex,
                                       @ForAll boolean prefixCaching,
                                       @ForAll @IntRange(min = 0, max = 3) int scheduler,
                                       @ForAll @IntRange(min = 0, max = 2) int priority,
                                       @ForAll @IntRange(min = 1, max = 400) int rate,
                                       @ForAll @IntRange(min = 0, max = 600) int prefixTokens,
                                       @ForAll @IntRange(min = 0, max = 1) int horizonOn,
                                       @ForAll long seed) {
        int blockSize = new int[] {1, 8, 16, 32}[blockSizeIndex];
        EngineConfig cfg = new EngineConfig(maxNumSeqs, maxBatched, threshold, 0, blockSize, kvBlocks, prefixCaching);
        WorkloadSpec spec = Workloads.randomLoad(rate, 300, prefixTokens);
        long horizon = horizonOn == 1 ? 2_000_000 : 0;
        var latency = new LinearLatency(200, 1, 20, 3000, 20, 150);
        var first = Runs.run(cfg, latency, SCHEDULERS[scheduler], PRIORITIES[priority], spec.open(seed, horizon), horizon);
        var second = Runs.run(cfg, latency, SCHEDULERS[scheduler], PRIORITIES[priority], spec.open(seed, horizon), horizon);

        Runs.checkContract(first, second, horizon, SCHEDULERS[scheduler] + "/" + PRIORITIES[priority]);
    }

    @Property(tries = 40)
    void tieredCacheInvariantsHoldOnRandomConfigs(@ForAll @IntRange(min = 1, max = 64) int maxNumSeqs,
                                                  @ForAll @IntRange(min = 16, max = 2048) int maxBatched,
                                                  @ForAll @IntRange(min = 8, max = 600) int kvBlocks,
                                                  @ForAll @IntRange(min = 1, max = 2000) int cpuBlocks,
                                                  @ForAll @IntRange(min = 0, max = 10) int thresholdTenths,
                                                  @ForAll @IntRange(min = 1, max = 100) int gbPerS,
                                                  @ForAll @IntRange(min = 0, max = 500) int baseUs,
                                                  @ForAll boolean blocking,
                                                  @ForAll @IntRange(min = 1, max = 400) int rate,
                                                  @ForAll @IntRange(min = 0, max = 1) int horizonOn,
                                                  @ForAll long seed) {
        // Per-tier conservation (GPU: referenced + free == total; CPU: resident + free == capacity, no
        // slot both) is asserted after every step by the engine's debug checks (-ea); here again at the
        // end, with INV-1, causality, determinism, and every block free once drained.
        KvTierConfig tiers = new KvTierConfig(cpuBlocks, thresholdTenths / 10.0, gbPerS, baseUs,
                blocking ? KvTierConfig.Reload.BLOCKING : KvTierConfig.Reload.STEP, 2_097_152);
        EngineConfig cfg = new EngineConfig(maxNumSeqs, maxBatched, 0, 0, 16, kvBlocks, 0.9, true, tiers);
        WorkloadSpec spec = Workloads.of("""
                {aggregate_rate: %d, num_requests: 200, input_distribution: {type: gaussian, params: {mean: 300, std_dev: 200, max: 1500}},
                 output_distribution: {type: gaussian, params: {mean: 40, std_dev: 30, max: 200}},
                 conversation: {probability: 0.7, turns: {type: uniform, params: {min: 2, max: 5}},
                                think_time_us: {type: exponential, params: {mean: 20000}}, context_growth: accumulate},
                 prefix: {group: p, length: 64}}""".formatted(rate));
        long horizon = horizonOn == 1 ? 2_000_000 : 0;
        var latency = new LinearLatency(200, 1, 20, 3000, 20, 150);
        var first = Runs.run(cfg, latency, "fcfs", "constant", spec.open(seed, horizon), horizon);
        var second = Runs.run(cfg, latency, "fcfs", "constant", spec.open(seed, horizon), horizon);
        assertEquals(first.records(), second.records(), "INV-6 determinism");
        assertEquals(first.summary(), second.summary(), "INV-6 determinism");
        var s = first.summary();
        assertEquals(s.count("injected"), s.count("completed") + s.count("dropped") + s.count("unfinished"), "INV-1");
        var t = s.kvTiers();
        assertTrue(t.gpuHitRate() >= 0 && t.cpuHitRate() >= 0
                && Math.abs(t.gpuHitRate() + t.cpuHitRate() - s.number("prefix_hit_rate")) < 1e-9,
                        "hit rates add up: " + t);
        assertTrue(t.thrashedBlocks() <= t.reloadedBlocks());
        for (RequestRecord r : first.records()) {
            assertTrue(r.cpuHitTokens() >= 0 && r.cpuHitTokens() <= r.prefixHitTokens(), r.toString());
            if (r.status().equals(RequestRecord.COMPLETED)) {
                assertTrue(r.arrivalUs() <= r.enqueueUs() && r.enqueueUs() <= r.firstScheduledUs()
                        && r.firstScheduledUs() < r.firstTokenUs() && r.firstTokenUs() <= r.completionUs(), "INV-5 " + r);
            }
        }
        if (horizon == 0) {
            assertEquals(0, s.count("unfinished"));
            var sim = new Simulation(SimSetup.single(cfg, latency), spec.open(seed, 0), r -> { });
            sim.run();
            assertEquals(0, sim.engine().kvCache().usedBlocks());
            sim.engine().kvCache().checkInvariants();
        }
    }

    @Property(tries = 20)
    void drainedEngineHoldsNoBlocks(@ForAll @IntRange(min = 8, max = 300) int kvBlocks, @ForAll long seed) {
        // After every request has left, every KV block is free again (INV-4 at rest).
        EngineConfig cfg = new EngineConfig(32, 512, 0, 0, 16, kvBlocks, true);
        WorkloadSpec spec = Workloads.of("""
                {aggregate_rate: 50, num_requests: 100, input_distribution: {type: gaussian, params: {mean: 200, std_dev: 150, max: 1000}},
                 output_distribution: {type: gaussian, params: {mean: 50, std_dev: 40, max: 300}}, prefix: {group: p, length: 64}}""");
        List<RequestRecord> out = new ArrayList<>();
        var sim = new Simulation(SimSetup.single(cfg, LinearLatency.steps(2000, 10, 100)), spec.open(seed, 0), out::add);
        sim.run();
        assertEquals(0, sim.engine().kvCache().usedBlocks());
        sim.engine().kvCache().checkInvariants();
    }

    /**
     * Speculative decoding on random configs: the engine's debug checks after every step include INV-4 with draft slots
     * (a request never holds more blocks than its tokens, k drafts and the lookahead need); here INV-1, INV-5 and INV-6
     * again, every block free once drained, accepted tokens never above drafted ones, and every completed request with
     * the tokens it asked for (or stopped at max_model_len).
     */
    @Property(tries = 40)
    void speculativeInvariantsHoldOnRandomConfigs(@ForAll @IntRange(min = 1, max = 64) int maxNumSeqs,
                                                  @ForAll @IntRange(min = 16, max = 2048) int maxBatched,
                                                  @ForAll @IntRange(min = 8, max = 800) int kvBlocks,
                                                  @ForAll boolean prefixCaching,
                                                  @ForAll @IntRange(min = 0, max = 3) int method,
                                                  @ForAll @IntRange(min = 1, max = 8) int k,
                                                  @ForAll @IntRange(min = 0, max = 10) int alphaTenths,
                                                  @ForAll @IntRange(min = 0, max = 1) int capped,
                                                  @ForAll @IntRange(min = 1, max = 400) int rate,
                                                  @ForAll long seed) {
        var m = io.servesim.engine.SpecDecodeConfig.Method.values()[method];
        var spec = io.servesim.engine.SpecDecodeConfig.of(m, k, alphaTenths / 10.0, m == io.servesim.engine.SpecDecodeConfig.Method.DRAFT
                ? "draft" : null).seeded(seed);
        int maxModelLen = capped == 1 ? 1200 : 0;
        EngineConfig cfg = new EngineConfig(maxNumSeqs, maxBatched, 0, maxModelLen, 16, kvBlocks, prefixCaching)
                .withSpeculative(spec);
        WorkloadSpec workload = Workloads.of("""
                {aggregate_rate: %d, num_requests: 200, input_distribution: {type: gaussian, params: {mean: 300, std_dev: 200, max: 1000}},
                 output_distribution: {type: gaussian, params: {mean: 60, std_dev: 50, max: 400}},
                 conversation: {probability: 0.5, turns: {type: uniform, params: {min: 2, max: 4}},
                                think_time_us: {type: exponential, params: {mean: 20000}}, context_growth: accumulate},
                 prefix: {group: p, length: 64}}""".formatted(rate));
        Drained d = drained(cfg, workload, seed);
        var s = d.first().summary();
        assertTrue(s.count("spec_accepted_tokens") <= s.count("spec_draft_tokens"));
        for (RequestRecord r : d.first().records()) {
            if (r.status().equals(RequestRecord.COMPLETED)) {
                assertTrue(r.outputTokens() == Math.max(1, r.requestedOutputTokens())
                        || maxModelLen > 0 && r.inputTokens() + r.outputTokens() == maxModelLen, r.toString());
            }
        }
    }

    /**
     * Multimodal requests on random configs, on either core: the vLLM core's encoder budget and cache as vLLM derives
     * them (the token budget, raised to the largest item), the SGLang core's embedding cache; items of up to 900 tokens
     * in prompts and session histories. The engine's debug checks after
     * every step include the encoder cache's bounds; here INV-1, INV-5, INV-6, every request done (no chunk waits forever
     * on an item), each admission encoding each item at most once, and once drained every KV block free and no encoder
     * output referenced.
     */
    @Property(tries = 60)
    void multimodalInvariantsHoldOnRandomConfigs(@ForAll @IntRange(min = 1, max = 64) int maxNumSeqs,
                                                 @ForAll @IntRange(min = 16, max = 4096) int maxBatched,
                                                 @ForAll @IntRange(min = 200, max = 3000) int kvBlocks,
                                                 @ForAll boolean prefixCaching,
                                                 @ForAll @IntRange(min = 1, max = 200) int rate,
                                                 @ForAll boolean sglang,
                                                 @ForAll long seed) {
        WorkloadSpec workload = Workloads.of("""
                {aggregate_rate: %d, num_requests: 150,
                 output_distribution: {type: gaussian, params: {mean: 40, std_dev: 30, max: 200}},
                 multimodal: {text_distribution: {type: uniform, params: {min: 1, max: 300}},
                              image_distribution: {type: uniform, params: {min: 1, max: 900}},
                              image_count_distribution: {type: uniform, params: {min: 0, max: 3}},
                              audio_distribution: {type: constant, params: {value: 50}},
                              audio_count_distribution: {type: uniform, params: {min: 0, max: 1}}},
                 conversation: {probability: 0.5, turns: {type: uniform, params: {min: 2, max: 3}},
                                think_time_us: {type: exponential, params: {mean: 20000}}, context_growth: accumulate}}"""
                .formatted(rate));
        EngineConfig vllm = new EngineConfig(maxNumSeqs, maxBatched, 0, 0, 16, kvBlocks, prefixCaching);
        // the SGLang core: no budget, an embedding cache of a few requests' items (3,000 tokens)
        EngineConfig cfg = sglang ? vllm.withSglang(io.servesim.engine.SglangConfig.DEFAULTS)
                .withEncoder(new io.servesim.engine.encoder.EncoderBudget(0, 3000))
                : vllm.withEncoder(io.servesim.engine.encoder.EncoderBudget.derive(maxBatched,
                        workload.largestMediaItemTokens(), 0, 0));
        Drained d = drained(cfg, workload, seed);
        assertEquals(0, d.sim().engine().encoderReferencedTokens());
        if (!sglang) {
            // an admission encodes each of its request's items at most once (a later chunk finds it cached)
            long bound = d.first().records().stream().mapToLong(r -> (long) r.mediaTokens() * (1 + r.preemptions())).sum();
            long encoded = d.sim().engine().encoderTokens();
            assertTrue(encoded <= bound, encoded + " encoder tokens > " + bound);
        }
    }

    /**
     * A sample the property once found stuck: a token budget of 31 (encoder budget and cache 900, the largest image),
     * where waiting requests kept the references their failed admissions took on cached items, so the head's next image
     * never found room and the engine stepped forever. Waiting requests now drop them ({@code EncoderInputs.abandon}).
     */
    @org.junit.jupiter.api.Test
    @org.junit.jupiter.api.Timeout(value = 60, threadMode = org.junit.jupiter.api.Timeout.ThreadMode.SEPARATE_THREAD)
    void waitingRequestsDoNotPinTheEncoderCache() {
        multimodalInvariantsHoldOnRandomConfigs(13, 31, 213, true, 104, false, 3793238886772L);
    }

    /** A run to completion (no horizon) and a second identical one, and the same run's engine once drained. */
    private record Drained(Runs.Result first, Simulation sim) {
    }

    /**
     * Runs {@code workload} on one engine of {@code cfg} twice (INV-6: identical records), checks INV-1 (every request
     * completed or dropped) and INV-5 (causality of every completed request), then runs it once more to the end and
     * checks that every KV block is free again (INV-4 at rest).
     */
    private static Drained drained(EngineConfig cfg, WorkloadSpec workload, long seed) {
        var latency = new LinearLatency(200, 1, 20, 3000, 20, 150);
        var first = Runs.run(cfg, latency, "fcfs", "constant", workload.open(seed, 0), 0);
        var second = Runs.run(cfg, latency, "fcfs", "constant", workload.open(seed, 0), 0);
        assertEquals(first.records(), second.records(), "INV-6 determinism");
        var s = first.summary();
        assertEquals(s.count("injected"), s.count("completed") + s.count("dropped"), "INV-1");
        for (RequestRecord r : first.records()) {
            if (r.status().equals(RequestRecord.COMPLETED)) {
                assertTrue(r.arrivalUs() <= r.enqueueUs() && r.enqueueUs() <= r.firstScheduledUs()
                        && r.firstScheduledUs() < r.firstTokenUs() && r.firstTokenUs() <= r.completionUs(), "INV-5 " + r);
            }
        }
        var sim = new Simulation(SimSetup.single(cfg, latency), workload.open(seed, 0), r -> { });
        sim.run();
        assertEquals(0, sim.engine().kvCache().usedBlocks());
        sim.engine().kvCache().checkInvariants();
        return new Drained(first, sim);
    }
}
