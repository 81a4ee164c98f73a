package io.servesim.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.servesim.engine.Engine;
import io.servesim.engine.EngineConfig;
import io.servesim.engine.KvTierConfig;
import io.servesim.latency.LatencyModel;
import io.servesim.latency.StepShape;
import io.servesim.metrics.RequestRecord;
import io.servesim.policy.priority.Priorities;
import io.servesim.policy.scheduling.Schedulers;
import io.servesim.workload.WorkloadSpec;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * Macro-steps over steady decode stretches ({@code engine.DecodeStretch}) are an optimization only:
 * on random engine configs (batch limits, chunked prefill, max_model_len, block sizes, prefix
 * caching, KV pressure with preemption, a CPU tier, a horizon), reasoning requests (their first answer token anywhere in
 * the output) and a latency model that reads every decode context, a run with them and a run with one engine step per STEP event give identical
 * request records and summaries, and the stretches do carry most steps of a decode-heavy run.
 */
class MacroStepPropertyTest {
    /** Step time reading the decode contexts (sum and extremes), as the roofline and profiled models do. */
    record ContextLatency(long a2) implements LatencyModel {
        @Override
        public String name() {
            return "context-test";
        }

        @Override
        public String describe() {
            return toString();
        }

        @Override
        public long stepTimeUs(StepShape s) {
            int longest = 0;
            for (int i = 0; i < s.decodeSeqs(); i++) {
                longest = Math.max(longest, s.decodeContextTokens(i));
            }
            return 2000 + 3 * s.prefillTokens() + 40L * s.decodeSeqs() + s.decodeContextTokens() / 50 + longest / 10;
        }

        @Override
        public long outputTokenProcessingUs() {
            return a2;
        }
    }

    @Property(tries = 60)
    void macroStepsChangeNoRecord(@ForAll @IntRange(min = 1, max = 64) int maxNumSeqs,
                                  @ForAll @IntRange(min = 16, max = 4096) int maxBatched,
                                  @ForAll @IntRange(min = 0, max = 512) int threshold,
                                  @ForAll @IntRange(min = 0, max = 1) int maxLenOn,
                                  @ForAll @IntRange(min = 8, max = 3000) int kvBlocks,
                                  @ForAll @IntRange(min = 0, max = 3) int blockSizeIndex,
                                  @ForAll boolean prefixCaching,
                                  @ForAll boolean cpuTier,
                                  @ForAll @IntRange(min = 1, max = 200) int rate,
                                  @ForAll @IntRange(min = 0, max = 1) int horizonOn,
                                  @ForAll @IntRange(min = 0, max = 300) int a2,
                                  @ForAll long seed) {
        int blockSize = new int[] {1, 8, 16, 32}[blockSizeIndex];
        KvTierConfig tiers = cpuTier && prefixCaching
                ? new KvTierConfig(500, 0.5, 20, 100, KvTierConfig.Reload.STEP, 2_097_152) : KvTierConfig.OFF;
        EngineConfig cfg = new EngineConfig(maxNumSeqs, maxBatched, threshold, maxLenOn == 1 ? 900 : 0, blockSize,
                kvBlocks, 0.9, prefixCaching, tiers);
        WorkloadSpec spec = Workloads.of("""
                {aggregate_rate: %d, num_requests: 200, input_distribution: {type: gaussian, params: {mean: 200, std_dev: 150, max: 800}},
                 output_distribution: {type: gaussian, params: {mean: 120, std_dev: 100, max: 600}},
                 conversation: {probability: 0.5, turns: {type: uniform, params: {min: 2, max: 3}},
                                think_time_us: {type: exponential, params: {mean: 20000}}, context_growth: accumulate},
                 prefix: {group: p, length: 48},
                 reasoning: {reason_ratio_distribution: {type: uniform, params: {min: 0, max: 100}}}}""".formatted(rate));
        long horizon = horizonOn == 1 ? 3_000_000 : 0;
        SimSetup setup = SimSetup.single(cfg, new ContextLatency(a2)).withHorizonUs(horizon);
        assertSameBothWays(setup, spec, seed, horizon);
    }

    /**
     * As {@link #macroStepsChangeNoRecord}, with every registered scheduler (wait-queue order and
     * preemption victim) and priority policy, a CPU tier reloading by step, blocking, or blocking and
     * on a failed allocation, and two client classes with random priorities and short outputs (a
     * request admitted and finished in one step): admissions inside a stretch follow the batch
     * former's order whatever the policy.
     */
    @Property(tries = 40)
    void macroStepsChangeNoRecordUnderEveryPolicyAndReload(@ForAll @IntRange(min = 1, max = 64) int maxNumSeqs,
                                                          @ForAll @IntRange(min = 4, max = 2048) int maxBatched,
                                                          @ForAll @IntRange(min = 0, max = 64) int threshold,
                                                          @ForAll @IntRange(min = 8, max = 3000) int kvBlocks,
                                                          @ForAll @IntRange(min = 0, max = 3) int blockSizeIndex,
                                                          @ForAll @IntRange(min = 0, max = 3) int reload,
                                                          @ForAll @IntRange(min = 0, max = 99) int schedulerPick,
                                                          @ForAll @IntRange(min = 0, max = 99) int priorityPick,
                                                          @ForAll @IntRange(min = 1, max = 200) int rate,
                                                          @ForAll long seed) {
        int blockSize = new int[] {1, 8, 16, 32}[blockSizeIndex];
        KvTierConfig tiers = switch (reload) {
            case 1 -> new KvTierConfig(500, 0.5, 20, 100, KvTierConfig.Reload.STEP, 2_097_152);
            case 2 -> new KvTierConfig(500, 0.5, 20, 100, KvTierConfig.Reload.BLOCKING, 2_097_152);
            case 3 -> new KvTierConfig(500, 0.5, 20, 100, KvTierConfig.Reload.BLOCKING, 2_097_152, true);
            default -> KvTierConfig.OFF;
        };
        EngineConfig cfg = new EngineConfig(maxNumSeqs, maxBatched, threshold, 0, blockSize, kvBlocks, 0.9, true, tiers);
        List<String> schedulers = List.copyOf(Schedulers.REGISTRY.names()); // registration order
        List<String> priorities = List.copyOf(Priorities.REGISTRY.names());
        PolicyBundle policies = PolicyBundle.DEFAULT
                .with(PolicyKind.SCHEDULER, spec(PolicyKind.SCHEDULER, schedulers.get(schedulerPick % schedulers.size()),
                        "ShortestPromptFirst.java"))
                .with(PolicyKind.PRIORITY, spec(PolicyKind.PRIORITY, priorities.get(priorityPick % priorities.size()),
                        "SloClassThenAge.java"));
        WorkloadSpec spec = Workloads.of("""
                {aggregate_rate: %d, num_requests: 200, clients: [
                  {id: a, slo_class: interactive, rate_fraction: 0.5, prefix: {group: p, length: 48},
                   input_distribution: {type: gaussian, params: {mean: 200, std_dev: 150, max: 800}},
                   output_distribution: {type: gaussian, params: {mean: 4, std_dev: 4, min: 1, max: 20}},
                   priority_distribution: {type: uniform, params: {min: 0, max: 5}}},
                  {id: b, slo_class: batch, rate_fraction: 0.5, prefix: {group: q, length: 64},
                   input_distribution: {type: gaussian, params: {mean: 300, std_dev: 200, max: 800}},
                   output_distribution: {type: gaussian, params: {mean: 120, std_dev: 100, min: 1, max: 600}},
                   priority_distribution: {type: uniform, params: {min: 0, max: 5}}}]}""".formatted(rate));
        SimSetup setup = SimSetup.single(cfg, new ContextLatency(0)).withPolicies(policies);
        assertSameBothWays(setup, spec, seed, 0);
    }

    /** Template {@code name}, or for {@code code} the kind's example in sweeps/policies/code/ ({@code example}). */
    private static io.servesim.policy.PolicySpec spec(PolicyKind<?> kind, String name, String example) {
        return name.equals(io.servesim.policy.code.CodePolicies.NAME)
                ? new io.servesim.policy.PolicySpec(name, java.util.Map.of("source", "../sweeps/policies/code/" + example),
                        kind.configPath())
                : io.servesim.policy.PolicySpec.of(name, kind.configPath());
    }

    /**
     * The sample that caught a stretch taking in a re-admitted request whose recompute chunk (32 of its
     * 33 tokens: the budget left after the stretch's one decode) left it one token short: not a steady
     * decoder, since it sampled nothing in that step and its next inter-token latency spans its wait.
     * Ten 32-token blocks for four sequences preempt all the time.
     */
    @Example
    void aRecomputeChunkOneTokenShortEndsTheStretch() {
        macroStepsChangeNoRecord(4, 33, 0, 0, 10, 3, true, false, 6, 0, 0, 0L);
    }

    @Property(tries = 5)
    void stretchesCarryMostStepsOfADecodeHeavyRun(@ForAll long seed) {
        // 2 req/s of 100-token prompts and ~300-token outputs at 10 ms a step: a handful of requests
        // decode together for hundreds of steps between arrivals and completions.
        EngineConfig cfg = new EngineConfig(256, 2048, 0, 0, 16, 5000, true);
        WorkloadSpec spec = Workloads.of("""
                {aggregate_rate: 2, num_requests: 100, input_distribution: {type: constant, params: {value: 100}},
                 output_distribution: {type: gaussian, params: {mean: 300, std_dev: 100, min: 50, max: 600}}}""");
        List<RequestRecord> out = new ArrayList<>();
        Simulation sim = new Simulation(SimSetup.single(cfg, LinearLatency.steps(10_000, 5, 50)), spec.open(seed, 0), out::add);
        sim.run();
        Engine e = sim.engine();
        assertTrue(e.macroSteps() > e.steps() / 2, e.macroSteps() + " macro-steps of " + e.steps());
        assertEquals(100, out.size());
    }

    /** The run with macro-steps and the run with one engine step per STEP event give the same records and summary. */
    private static void assertSameBothWays(SimSetup setup, WorkloadSpec spec, long seed, long horizonUs) {
        Runs.Result macro = Runs.run(setup, spec.open(seed, horizonUs));
        Runs.Result single = Runs.run(singleSteps(setup), spec.open(seed, horizonUs));
        assertEquals(single.records(), macro.records());
        assertEquals(single.summary(), macro.summary());
    }

    /** {@code setup} with {@code engine.macro_steps: false}: every step on its own. */
    private static SimSetup singleSteps(SimSetup s) {
        EngineConfig e = s.engine();
        EngineConfig single = new EngineConfig(e.maxNumSeqs(), e.maxNumBatchedTokens(), e.longPrefillTokenThreshold(),
                e.maxModelLen(), e.blockSizeTokens(), e.totalKvBlocks(), e.gpuMemoryUtilization(), e.prefixCaching(),
                e.kvTiers(), false, e.asyncScheduling());
        return s.toBuilder().engine(single).build();
    }
}
