package io.servesim.latency;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.servesim.testing.RepoFiles;
import java.io.IOException;
import java.nio.file.Files;
import org.junit.jupiter.api.Test;

/**
 * Two expert-parallel ranks of Qwen3-30B-A3B-Instruct-2507 on RTX PRO 6000s (PCIe Gen5 x16, peer-to-peer), priced by
 * hand from the bundled profile's CSVs (the decode numbers of ProfiledModelTest) and NCCL's ring model.
 */
class ExpertParallelStepTest {
    private static final GpuSpec GPU = GpuCatalog.builtIn().lookup("RTXPRO6000", "test");
    /** The shipped run's engine: 128 seats, 2,048 tokens a step; graphs up to 256 tokens. */
    private static final CudaGraphSizes GRAPHS = CudaGraphSizes.vllmDefault(128, 2048);

    private static ProfiledModel qwen3MoeProfile() {
        return assertInstanceOf(ProfiledModel.class, LatencyModels.resolve(new LatencySpec("profiled",
                "Qwen/Qwen3-30B-A3B-Instruct-2507", "RTXPRO6000", 1, null), "deployment").model());
    }

    private static StepShape oneDecode() {
        StepShape s = new StepShape();
        s.addDecode(16);
        return s;
    }

    @Test
    void unmeasuredAnAllGatherOfTwoPcieRanksIsNcclsRingAtItsFastestProtocol() {
        // The row's link without its timed collectives. 2 ranks: n - 1 = 1 ring step; the row's measured NCCL bus
        // bandwidth between two of these cards, 30.7 GB/s (NCCL's own estimate of PCIe Gen5 x16, 16 x 240 / 80 =
        // 48 GB/s, is what the lanes carry, not the host's path).
        // LL: base 6.6 + 1 hop x 1.0 (PCI) = 7.6 us at min(87.7, 30.7 x 0.5) x 2 / 1 = 30.7 GB/s = 30,700 B/us;
        // Simple: 8.4 + 5.7 = 14.1 us at 30.7 x 2 = 61,400 B/us; LL128 is NVLink-only.
        // 8,704 B: LL 7.6 + 0.283518 = 7.883518 < Simple 14.241759. 8 MiB: Simple 14.1 + 136.622280 < LL 280.84.
        GatherScatter ag = new GatherScatter(GPU.interconnect().withMeasuredCollectives(MeasuredCollectives.NONE), 2);
        assertEquals(7.6 + 8704 / 30700.0, ag.allGatherUs(8704), 1e-9);
        assertEquals(14.1 + (8 << 20) / 61400.0, ag.allGatherUs(8 << 20), 1e-9);
        assertEquals(ag.allGatherUs(8704), ag.reduceScatterUs(8704), "NCCL's model prices both as one ring");
        assertEquals(0, ag.allGatherUs(0));
        assertThrows(IllegalArgumentException.class, () -> new GatherScatter(GPU.interconnect(), 1));
    }

    /**
     * The bundled row times both collectives between two of these cards (LLMServingSim's hardware.yaml), so a
     * two-rank group reads one rank's chunk, half the buffer, off the samples. 8,704 B all-gathered: a 4,352 B chunk,
     * between 4,096 B (10.50 us) and 8,192 B (11.41 us): 10.50 + 256 / 4,096 x 0.91 = 10.556875 us, where NCCL's
     * model says 7.883518. Reduce-scattered 8,192 B: a 4,096 B chunk, the first sample, 9.83 us. Below the first
     * sample, its time; four ranks were not measured, so NCCL's model prices them.
     */
    @Test
    void measuredTwoRankCollectivesReplaceNcclsModel() {
        GatherScatter two = new GatherScatter(GPU.interconnect(), 2);
        assertEquals(10.556875, two.allGatherUs(8704), 1e-9);
        assertEquals(9.83, two.reduceScatterUs(8192), 1e-9);
        assertEquals(9.83, two.reduceScatterUs(64), 1e-9);
        GatherScatter four = new GatherScatter(GPU.interconnect(), 4);
        assertEquals(four.ncclModelUs(8704), four.allGatherUs(8704), 1e-12);
    }

    /**
     * A rank's MoE block is priced at the distinct experts its share of the gathered tokens touches, not at its pairs:
     * 8 tokens per rank gather 16, which touch 128 x (1 - 0.9375^16) = 82.4225 experts, 41.2113 of a rank's 64, while
     * the rank's 8 x 8 = 64 pairs would name 64 (LLMServingSim's correction, gate_function.py). In moe.csv at 8 tokens
     * (the 32-expert row held at its 4-token 234.315, the table never faster for more tokens):
     * 234.315 + (41.2113 - 32) / 32 x (423.073 - 234.315) = 288.6493 us, against the 64-expert row's 423.073.
     */
    @Test
    void aRankTouchesTheDistinctExpertsOfTheGatheredTokens() throws IOException {
        ProfiledModel m = qwen3MoeProfile();
        double activated = 64 * (1 - Math.pow(0.9375, 16));
        assertEquals(41.2113, activated, 1e-4);
        assertEquals(qwen3MoeTable().timeUs(8, activated), m.expertBlockUs(8, 2, 1), 1e-9);
        assertEquals(288.6493, qwen3MoeTable().timeUs(8, activated), 1e-4);
    }

    private static MoeTable qwen3MoeTable() throws IOException {
        return MoeTable.read(ProfileCsv.read(Files.newInputStream(RepoFiles.data(
                "profiling/llmservingsim_rtxpro6000_qwen3_30b_a3b_instruct_2507/tp1/moe.csv")), "moe.csv"));
    }

    @Test
    void anIdleRankRunsADummyBatchAndTheBusyRankSetsTheStep() {
        ProfiledModel m = qwen3MoeProfile();
        // One decode token on rank 0, rank 1 idle; padded T = 1.
        // Busy rank without its MoE block: 83.35537 - 50.2297 (ProfiledModelTest's layer, its MoE row) = 33.12567 us
        // per layer x 48 = 1590.03216, + once 435.47803 = 2025.51019 us.
        // Dummy batch (1 token padded to T, no attention): 33.12567 - 7.69067 = 25.435 x 48 = 1220.88 + 435.47803
        // = 1656.35803 us.
        assertEquals(2025.51019, m.rankStepUs(oneDecode(), 1, 0), 1e-6);
        assertEquals(1656.35803, m.rankStepUs(new StepShape(), 1, 0), 1e-6);
        // MoE block per rank (balanced gate): the 1 token whose 8 pairs are the rank's, on 64 x (1 - 0.9375^2) = 7.75
        // experts touched of the 2 gathered tokens -> moe.csv's fewest row (8 experts) at 1 token: 50.2297 us.
        assertEquals(50.2297, m.expertBlockUs(1, 2, 1), 1e-9);
        // Collectives of 2 x 1 tokens, as the row's two cards measured them: all-gather 2 x (2048 + 128) x 2 = 8,704 B
        // -> 10.556875 us, reduce-scatter 2 x 2048 x 2 = 8,192 B -> 9.83 us (measuredTwoRankCollectivesReplaceNcclsModel).
        // Off-rank pairs: 2 x 1 x 8 gathered - 1 x 8 own = 8, x (5 x 768 + 2 x 2048) x 2 B = 126,976 B at
        // 1,597 GB/s x 0.9304 (the bundled memory efficiency) = 0.085457 us.
        // Shared: 48 x (50.2297 + 20.386875 + 0.085457) = 3393.697536.
        // Step: max(2025.51019, 1656.35803) + 3393.697536 = 5419.207726 -> 5419 us (one engine alone: 4437 us).
        ExpertParallelStep ep = new ExpertParallelStep(m, 2, GPU.interconnect(), 1, GRAPHS);
        StepShape dummy = new StepShape();
        assertEquals(20.386875, ep.collectivesUs(2), 1e-6);
        assertEquals(126_976 / (1597e6 * 0.9304 / 1e3), ep.offRankUs(1), 1e-9);
        assertEquals(5419, ep.stepTimeUs(new StepShape[] {oneDecode(), null}, dummy));
        assertEquals(5419, ep.stepTimeUs(new StepShape[] {null, oneDecode()}, dummy), "the ranks are symmetric");
        assertEquals(5419, ep.stepTimeUs(new StepShape[] {oneDecode(), oneDecode()}, dummy),
                "a second busy rank of the same batch costs the group nothing more");
    }

    /**
     * vLLM pads the ranks to one CUDA graph's size only when every rank's step runs a graph (vllm-project/vllm#34102).
     * A 100-token prefill beside an idle rank: both fit a graph (sizes to 256), so both run 104 tokens, the next size.
     * A 300-token prefill runs eagerly, so neither rank is padded: rank 0 runs 300 tokens, the idle rank's dummy batch
     * 1, and the MoE layers gather 301 tokens (150.5 a rank on average) for the experts. Their all-gather-v and
     * reduce-scatter-v (grouped broadcasts and reduces, one rooted at each rank) move rank 0's 300 tokens one way over
     * the link, as equal chunks of 300 do: priced as 2 / 1 x (301 - 1) = 600 gathered tokens, the collectives of the
     * padded step. By hand, off the row's two-card samples (made non-decreasing: 1,114,112 B all-gathered is held at
     * 1,048,576 B's 45.78 us): all-gather 600 x 4,352 = 2,611,200 B, a 1,305,600 B chunk between 1,114,112 B
     * (45.78 us) and 1,310,720 B (51.63): 45.78 + 191,488 / 196,608 x 5.85 = 51.477656 us; reduce-scatter
     * 600 x 4,096 = 2,457,600 B, a 1,228,800 B chunk between 1,114,112 B (51.53) and 1,310,720 B (59.12):
     * 51.53 + 114,688 / 196,608 x 7.59 = 55.9575 us. Padded to 300 each, the experts would take 600 tokens' pairs.
     */
    @Test
    void ranksArePaddedOnlyWhenEveryRanksStepRunsACudaGraph() {
        ProfiledModel m = qwen3MoeProfile();
        ExpertParallelStep ep = new ExpertParallelStep(m, 2, GPU.interconnect(), 1, GRAPHS);
        StepShape dummy = new StepShape();
        StepShape small = prefill(100);
        double sharedSmall = 48 * (m.expertBlockUs(104, 2, 1) + ep.offRankUs(104) + ep.collectivesUs(208));
        assertEquals(Math.round(m.rankStepUs(small, 104, sharedSmall)), ep.stepTimeUs(new StepShape[] {small, null}, dummy));

        StepShape large = prefill(300);
        assertEquals(51.477656 + 55.9575, ep.collectivesUs(600), 1e-6);
        double shared = 48 * (m.expertBlockUs(150.5, 2, 1) + ep.offRankUs(150.5) + ep.collectivesUs(600));
        long unpadded = ep.stepTimeUs(new StepShape[] {large, null}, dummy);
        assertEquals(Math.round(Math.max(m.rankStepUs(large, 300, shared), m.rankStepUs(dummy, 1, shared))), unpadded);
        double paddedShared = 48 * (m.expertBlockUs(300, 2, 1) + ep.offRankUs(300) + ep.collectivesUs(600));
        assertTrue(unpadded < m.rankStepUs(large, 300, paddedShared), "padding the idle rank to 300 would cost more");
    }

    /**
     * Every rank's fused MoE runs over all gathered token-expert pairs (vLLM's TritonExperts): a rank's own pairs are
     * its experts' work, the others' rows only zeros, the activation and the sum, streamed at the memory bandwidth.
     */
    @Test
    void theOtherRanksPairsCostTheirBytesOnEveryRank() {
        ProfiledModel m = qwen3MoeProfile();
        // 256 tokens a rank over 2 ranks: 512 x 8 = 4,096 gathered pairs, 2,048 the rank's own, 2,048 the other's, each
        // (5 x 768 + 2 x 2,048) x 2 = 15,872 B: 32,505,856 B at 1,485,848.8 B/us = 21.877 us a layer
        double perUs = 1597e6 * 0.9304 / 1e3;
        ExpertParallelStep balanced = new ExpertParallelStep(m, 2, GPU.interconnect(), 1, GRAPHS);
        assertEquals(2048 * 15_872 / perUs, balanced.offRankUs(256), 1e-9);
        // balancedness 0.8: the busiest rank owns 2,048 / 0.8 = 2,560 pairs, and 1,536 are the other's
        ExpertParallelStep skewed = new ExpertParallelStep(m, 2, GPU.interconnect(), 0.8, GRAPHS);
        assertEquals(1536 * 15_872 / perUs, skewed.offRankUs(256), 1e-9);
        // four ranks: 3 of every 4 gathered pairs are other ranks'
        ExpertParallelStep four = new ExpertParallelStep(m, 4, GPU.interconnect(), 1, GRAPHS);
        assertEquals(3 * 256 * 8 * 15_872 / perUs, four.offRankUs(256), 1e-9);
    }

    /**
     * Four ranks unpadded, one prefilling 300 tokens and three idle at their dummy batch's one: each ring broadcast
     * crosses every link but the one into its root, so the link into an idle rank carries 300 + 1 + 1 tokens, the
     * busiest, as an all-gather of equal chunks of 302 / 3 does: priced at 4 / 3 x (303 - 1) gathered tokens.
     */
    @Test
    void unequalRanksPayTheirBusiestLink() {
        ProfiledModel m = qwen3MoeProfile();
        ExpertParallelStep four = new ExpertParallelStep(m, 4, GPU.interconnect(), 1, GRAPHS);
        StepShape dummy = new StepShape();
        StepShape large = prefill(300);
        double perRank = 303 / 4.0;
        double shared = 48 * (m.expertBlockUs(perRank, 4, 1) + four.offRankUs(perRank) + four.collectivesUs(4.0 / 3 * 302));
        assertEquals(Math.round(m.rankStepUs(large, 300, shared)),
                four.stepTimeUs(new StepShape[] {large, null, null, null}, dummy));
        assertTrue(four.collectivesUs(4.0 / 3 * 302) > four.collectivesUs(303), "more than an even split of the total");
    }

    private static StepShape prefill(int tokens) {
        StepShape s = new StepShape();
        s.addPrefill(tokens, 0);
        return s;
    }

    @Test
    void theSlowestRanksAttentionSetsTheStep() {
        ProfiledModel m = qwen3MoeProfile();
        ExpertParallelStep ep = new ExpertParallelStep(m, 2, GPU.interconnect(), 1, GRAPHS);
        StepShape shortKv = oneDecode();
        StepShape longKv = new StepShape();
        longKv.addDecode(8000);
        long both = ep.stepTimeUs(new StepShape[] {shortKv, longKv}, new StepShape());
        double shared = 48 * (m.expertBlockUs(1, 2, 1) + ep.offRankUs(1) + ep.collectivesUs(2));
        assertEquals(Math.round(m.rankStepUs(longKv, 1, 0) + shared), both);
        assertTrue(m.rankStepUs(longKv, 1, 0) > m.rankStepUs(shortKv, 1, 0));
    }

    @Test
    void theRooflinePricesARanksExpertsOverTheGatheredTokens() {
        RooflineModel r = new RooflineModel(ModelCatalog.builtIn().lookup("qwen/qwen3-30b-a3b", "x"), GPU, 1);
        // 2 ranks x 1 token gathered: 2 tokens enter a rank's fused MoE over its 64 experts, which take 8 of their 16
        // choices, on 64 x (1 - 0.9375^2) = 7.75 experts touched in expectation (each missed by a token with probability
        // 1 - 8/128): fewer than one GPU's 8 of 128 for its one token, more weight read than half of it.
        FusedMoe fused = new FusedMoe(768, 2048, 2, 2, GPU.peakFlopsPerSecond(2), GPU, RooflineConstants.bundled());
        assertEquals(fused.timeUs(2, 64, 8, 7.75), r.expertBlockUs(1, 2, 1), 1e-9);
        // at 256 tokens per rank both saturate, memory-bound: a rank reads half the experts for the same 2,048 rows
        assertTrue(r.expertBlockUs(256, 2, 1) < 0.6 * r.expertBlockUs(256, 1, 1));
        assertEquals(0, new RooflineModel(ModelCatalog.builtIn().lookup("meta-llama/llama-3.1-8b", "x"), GPU, 1)
                .expertBlockUs(16, 2, 1), "a dense model has no routed experts");
    }

    /**
     * Balancedness 0.5 (vLLM EPLB's mean over busiest rank load): the busiest rank carries twice the mean rank's
     * token-expert pairs. Profiled, 16 tokens per rank: 16 x 2 = 32 tokens' pairs on the experts the 32 gathered tokens
     * touch, 64 x (1 - 0.9375^32) = 55.8855 (hot experts take the extra pairs), where a balanced rank at 32 tokens meets
     * 64 x (1 - 0.9375^64) = 62.9712. Roofline, 256 tokens per rank: the 512 gathered tokens enter the kernel and
     * 256 x 8 x 2 = 4,096 pairs (every gathered token's 8) land on the busiest rank's 64 experts. The group's step grows
     * by the MoE layers' difference; the all-gather and reduce-scatter move the same bytes.
     */
    @Test
    void theBusiestRankOfAnImbalancedGateSetsTheExpertBlock() throws IOException {
        ProfiledModel m = qwen3MoeProfile();
        MoeTable table = qwen3MoeTable();
        assertEquals(table.timeUs(32, 64 * (1 - Math.pow(0.9375, 32))), m.expertBlockUs(16, 2, 2), 1e-9);
        assertEquals(table.timeUs(32, 64 * (1 - Math.pow(0.9375, 64))), m.expertBlockUs(32, 2, 1), 1e-9);
        assertTrue(m.expertBlockUs(16, 2, 2) > m.expertBlockUs(16, 2, 1));
        assertTrue(m.expertBlockUs(16, 2, 2) < m.expertBlockUs(32, 2, 1));
        RooflineModel r = new RooflineModel(ModelCatalog.builtIn().lookup("qwen/qwen3-30b-a3b", "x"), GPU, 1);
        FusedMoe fused = new FusedMoe(768, 2048, 2, 2, GPU.peakFlopsPerSecond(2), GPU, RooflineConstants.bundled());
        double touched = 64 * (1 - Math.pow(0.9375, 512));
        assertEquals(fused.timeUs(512, 64, 4096, touched), r.expertBlockUs(256, 2, 2), 1e-9);
        ExpertParallelStep balanced = new ExpertParallelStep(m, 2, GPU.interconnect(), 1, GRAPHS);
        ExpertParallelStep skewed = new ExpertParallelStep(m, 2, GPU.interconnect(), 0.5, GRAPHS);
        StepShape[] ranks = {oneDecode(), oneDecode()};
        // one token per rank: the busiest rank carries 2 tokens' pairs on the 7.75 experts 2 gathered tokens touch
        assertEquals(Math.round(m.rankStepUs(oneDecode(), 1, 48 * (m.expertBlockUs(1, 2, 2) + skewed.collectivesUs(2)))),
                skewed.stepTimeUs(ranks, new StepShape()));
        assertEquals(balanced.collectivesUs(2), skewed.collectivesUs(2));
        assertTrue(skewed.describe().endsWith("expert load balancedness 0.50: the busiest rank's experts take 2.00 x the"
                + " mean)"), skewed.describe());
    }
}
