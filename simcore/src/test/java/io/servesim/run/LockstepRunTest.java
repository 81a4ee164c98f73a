package io.servesim.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.servesim.cluster.ClusterConfig;
import io.servesim.engine.EngineConfig;
import io.servesim.engine.Request;
import io.servesim.engine.RequestTags;
import io.servesim.engine.TokenSequence;
import io.servesim.latency.CudaGraphSizes;
import io.servesim.latency.ExpertParallelModel;
import io.servesim.latency.ExpertParallelStep;
import io.servesim.latency.GpuCatalog;
import io.servesim.latency.ModelArchitecture;
import io.servesim.latency.ModelCatalog;
import io.servesim.latency.StepShape;
import io.servesim.metrics.RequestRecord;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Two data-parallel ranks of Qwen3-30B-A3B on RTX PRO 6000s behind vLLM's DP load balancer, stepping in lockstep
 * (engine.Lockstep) with a per-rank model simple enough to price by hand: a rank's own work is 10 us per padded token
 * + 100 us per sequence of its own, a MoE layer's routed experts 2 us per padded token, element-wise bytes 1 us per MB.
 */
class LockstepRunTest {
    /** The hand-priced per-rank model on Qwen3-30B-A3B's shape (48 MoE layers, hidden 2048, 128 experts, BF16). */
    static final class HandModel implements ExpertParallelModel {
        private final ModelArchitecture arch = ModelCatalog.builtIn().lookup("qwen/qwen3-30b-a3b", "test");

        @Override
        public double rankStepUs(StepShape own, long runTokens, double sharedUs) {
            return 10.0 * runTokens + 100.0 * own.batchSize() + sharedUs;
        }

        @Override
        public double expertBlockUs(double tokensPerRank, int ep, double load) {
            return 2.0 * tokensPerRank * load;
        }

        @Override
        public double streamUs(double bytes) {
            return bytes / 1e6;
        }

        @Override
        public ModelArchitecture architecture() {
            return arch;
        }

        @Override
        public String name() {
            return "hand";
        }

        @Override
        public String describe() {
            return "hand";
        }

        @Override
        public long stepTimeUs(StepShape step) {
            return Math.round(rankStepUs(step, Math.max(1, step.totalTokens()), 48 * expertBlockUs(step.totalTokens(), 1, 1)));
        }
    }

    static SimSetup twoRanks(boolean lockstep) {
        HandModel m = new HandModel();
        EngineConfig engine = new EngineConfig(8, 512, 0, 4096, 16, 1000, true).withMacroSteps(!lockstep);
        SimSetup s = SimSetup.single(engine, m).withCluster(ClusterConfig.SINGLE.withInstances(2))
                .withPolicies(PolicyBundle.DEFAULT.with(PolicyKind.ROUTING, "dp-load-balancer"));
        return lockstep ? s.withExpertParallel(new ExpertParallelStep(m, 2,
                GpuCatalog.builtIn().lookup("RTXPRO6000", "test").interconnect(), 1,
                CudaGraphSizes.vllmDefault(engine.maxNumSeqs(), engine.maxNumBatchedTokens()))) : s;
    }

    static Request request(int id, int promptTokens, int outputTokens, long arrivalUs) {
        return new Request(id, RequestTags.DEFAULT, TokenSequence.unique(1000 + id, promptTokens), outputTokens, 0,
                arrivalUs, 0, true);
    }

    @Test
    void oneRequestsFirstStepIsTheBusyRanksTimePlusTheSharedMoeWork() {
        // Rank 0 prefills 16 tokens (1 sequence), rank 1 is idle: both fit a CUDA graph (8 seats: sizes up to 16), so
        // both are padded to T = 16.
        // Collectives of 2 x 16 tokens over the RTX PRO 6000's PCIe Gen5 x16, read off the row's two-card NCCL samples:
        // all-gather 32 x 4,352 = 139,264 B, a 69,632 B chunk between 65,536 B (13.62 us) and 131,072 B (16.76 us):
        // 13.62 + 4,096 / 65,536 x 3.14 = 13.81625 us; reduce-scatter 32 x 4,096 = 131,072 B, a 65,536 B chunk: 12.75 us.
        // Off-rank pairs: 2 x 16 x 8 gathered - 16 x 8 own = 128, x (5 x 768 + 2 x 2,048) x 2 B = 2,031,616 B -> 2.031616 us.
        // Shared: 48 x (2 x 16 + 2.031616 + 13.81625 + 12.75) = 48 x 60.597866 = 2,908.697568 us.
        // Busy rank 10 x 16 + 100 x 1 + 2,908.697568 = 3,168.697568; rank 1's dummy batch (one token padded to 16, no
        // sequence of its own) 160 + 2,908.697568 = 3,068.697568. Step (and TTFT, no front end) = 3,169 us.
        Runs.Result r = Runs.run(twoRanks(true), Runs.listOf(List.of(request(0, 16, 1, 0))));
        RequestRecord rec = r.byId(0);
        assertEquals(RequestRecord.COMPLETED, rec.status());
        assertEquals(0, rec.instanceId());
        assertEquals(3169, rec.ttftUs());
    }

    @Test
    void theLoadBalancerCountsItsOwnPicksBetweenPublications() {
        // All three arrive within one 100 ms publication: counts (0, 0) published at t = 0. Request 0: tie -> rank 0,
        // whose waiting count the balancer raises to 1 (score 4); request 1: 4 vs 0 -> rank 1; request 2: 4 vs 4 -> rank 0.
        List<Request> reqs = List.of(request(0, 16, 4, 0), request(1, 16, 4, 1), request(2, 16, 4, 2));
        Runs.Result r = Runs.run(twoRanks(true), Runs.listOf(reqs));
        assertEquals(List.of(0, 1, 0), r.records().stream().sorted(java.util.Comparator.comparingLong(RequestRecord::requestId))
                .map(RequestRecord::instanceId).toList());
        assertTrue(r.records().stream().allMatch(x -> RequestRecord.COMPLETED.equals(x.status())));
    }

    @Test
    void lockstepMakesTheIdleRanksRequestWaitForTheGroupsStep() {
        // Independent ranks serve a late request on the idle rank at once; in lockstep it waits for the busy rank's
        // step in flight, so its TTFT can only grow.
        List<Request> reqs = List.of(request(0, 400, 50, 0), request(1, 16, 1, 1_000));
        long independent = Runs.run(twoRanks(false), Runs.listOf(reqs)).byId(1).ttftUs();
        long lockstep = Runs.run(twoRanks(true), Runs.listOf(List.of(request(0, 400, 50, 0), request(1, 16, 1, 1_000))))
                .byId(1).ttftUs();
        assertTrue(lockstep > independent, lockstep + " vs " + independent + " us");
    }

    @Test
    void aRankWithMacroStepsCannotJoinAGroup() {
        SimSetup s = twoRanks(true);
        SimSetup withStretches = s.withCluster(s.cluster()).withExpertParallel(s.expertParallel());
        EngineConfig macro = withStretches.engine().withMacroSteps(true);
        assertThrows(IllegalStateException.class, () -> Runs.run(s.toBuilder().engine(macro).horizonUs(0)
                .gpusPerReplica(1).pd(null, null).maxEvents(Long.MAX_VALUE).build(),
                Runs.listOf(List.of())));
    }
}
