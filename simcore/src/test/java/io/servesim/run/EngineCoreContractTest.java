package io.servesim.run;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.servesim.engine.EngineConfig;
import io.servesim.engine.SglangConfig;
import io.servesim.workload.WorkloadSpec;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * The contract every engine core keeps, run over both (the vLLM core and the SGLang core under each schedule policy) on
 * the same random configs and workloads, with the engines' debug checks on (KV conservation after every step: the
 * vLLM blocks', the radix tree's and its page pool's; work conservation; causality of every leaving request):
 * INV-1 request conservation, INV-5 causality, INV-6 determinism, token conservation (a completed request generated
 * its tokens, at most max_model_len allows), KV conservation at rest (no page held once every request left), and
 * every request finishing under light load.
 */
class EngineCoreContractTest {
    private static final SglangConfig.Policy[] POLICIES = SglangConfig.Policy.values();

    /** The cores under test on one random config: the vLLM core, and the SGLang core with {@code policy}. */
    private static List<EngineConfig> cores(int maxNumSeqs, int budget, int kvBlocks, int blockSize, boolean prefixCaching,
                                           SglangConfig.Policy policy, int chunk) {
        EngineConfig vllm = new EngineConfig(maxNumSeqs, budget, 0, 0, blockSize, kvBlocks, prefixCaching);
        SglangConfig d = SglangConfig.DEFAULTS;
        EngineConfig sglang = vllm.withSglang(new SglangConfig(policy, chunk, Math.max(chunk, d.maxPrefillTokens()),
                d.initNewTokenRatio(), d.minNewTokenRatioFactor(), d.newTokenRatioDecaySteps(), d.scheduleConservativeness()));
        return List.of(vllm, sglang);
    }

    @Property(tries = 60)
    void everyCoreKeepsTheEngineContract(@ForAll @IntRange(min = 1, max = 64) int maxNumSeqs,
                                         @ForAll @IntRange(min = 16, max = 4096) int budget,
                                         @ForAll @IntRange(min = 8, max = 2000) int kvBlocks,
                                         @ForAll @IntRange(min = 0, max = 3) int blockSizeIndex,
                                         @ForAll boolean prefixCaching,
                                         @ForAll @IntRange(min = 0, max = 4) int policy,
                                         @ForAll @IntRange(min = 1, max = 400) int rate,
                                         @ForAll @IntRange(min = 0, max = 600) int prefixTokens,
                                         @ForAll @IntRange(min = 0, max = 1) int horizonOn,
                                         @ForAll long seed) {
        int blockSize = new int[] {1, 8, 16, 32}[blockSizeIndex];
        WorkloadSpec spec = Workloads.randomLoad(rate, 200, prefixTokens);
        long horizon = horizonOn == 1 ? 2_000_000 : 0;
        var latency = new LinearLatency(200, 1, 20, 3000, 20, 150);
        for (EngineConfig cfg : cores(maxNumSeqs, budget, kvBlocks, blockSize, prefixCaching, POLICIES[policy], Math.max(budget, blockSize))) {
            var first = Runs.run(cfg, latency, "fcfs", "constant", spec.open(seed, horizon), horizon);
            var second = Runs.run(cfg, latency, "fcfs", "constant", spec.open(seed, horizon), horizon);
            String core = cfg.isSglang() ? "sglang " + POLICIES[policy] : "vllm";
            Runs.checkContract(first, second, horizon, core);
            if (horizon == 0) {
                var sim = new Simulation(SimSetup.single(cfg, latency), spec.open(seed, 0), rec -> { });
                sim.run();
                assertEquals(0, sim.engine().kvCache().usedBlocks(), "KV conservation at rest, " + core);
                sim.engine().kvCache().checkInvariants();
            }
        }
    }

    @Property(tries = 20)
    void everyRequestFinishesUnderLightLoad(@ForAll @IntRange(min = 0, max = 4) int policy,
                                            @ForAll @IntRange(min = 0, max = 2) int blockSizeIndex,
                                            @ForAll long seed) {
        int blockSize = new int[] {1, 8, 16}[blockSizeIndex];
        WorkloadSpec spec = Workloads.of("""
                {aggregate_rate: 5, num_requests: 60, input_distribution: {type: gaussian, params: {mean: 200, std_dev: 100, max: 800}},
                 output_distribution: {type: gaussian, params: {mean: 40, std_dev: 30, max: 200}}, prefix: {group: p, length: 64}}""");
        var latency = LinearLatency.steps(2000, 10, 100);
        for (EngineConfig cfg : cores(64, 2048, 16_000 / blockSize, blockSize, true, POLICIES[policy], 2048)) {
            var run = Runs.run(cfg, latency, "fcfs", "constant", spec.open(seed, 0), 0);
            assertEquals(60, run.summary().count("completed"), cfg.isSglang() ? "sglang" : "vllm");
            assertEquals(0, run.summary().count("preemptions"), "light load never preempts or retracts");
        }
    }
}
