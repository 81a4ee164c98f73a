package io.servesim.policy.routing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.servesim.cluster.ClusterView;
import io.servesim.cluster.InstanceSnapshot;
import io.servesim.cluster.Observability;
import io.servesim.cluster.RoutingPolicy;
import io.servesim.cluster.Signal;
import io.servesim.config.ConfigException;
import io.servesim.engine.Engine;
import io.servesim.engine.EngineConfig;
import io.servesim.engine.EngineObserver;
import io.servesim.engine.KvCache;
import io.servesim.engine.KvTierConfig;
import io.servesim.engine.Request;
import io.servesim.engine.RequestTags;
import io.servesim.engine.TokenSequence;
import io.servesim.kernel.EventQueue;
import io.servesim.policy.PolicySpec;
import io.servesim.policy.scheduling.Schedulers;
import io.servesim.run.LinearLatency;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** kv-router's {@code cpu_hit_weight}: overlap held only in an instance's CPU tier, discounted. */
class KvRouterTierTest {
    private static Request req(long id, TokenSequence prompt) {
        return new Request(id, RequestTags.DEFAULT, prompt, 4, 0, 0, 0, true);
    }

    private static RoutingPolicy router(Map<String, Object> params) {
        return KvRouter.create(new PolicySpec("kv-router", params, "policies.routing"),
                new io.servesim.policy.PolicyContext(2, io.servesim.slo.SloTargets.DEFAULT).withCpuKvTier(true));
    }

    /**
     * Two instances, 4 GPU blocks of 16 and a CPU tier of 8 (threshold 0: every eviction offloads).
     * Instance 0 ends up holding the 32-token prefix P only in its CPU tier (evicted by 64 unrelated
     * tokens), instance 1 on its GPU (freed, still cached). Returns the view, built first so both
     * tiers' block events reach its indexes.
     */
    private static ClusterView prefixInCpuAtZeroGpuAtOne(RoutingPolicy routing) {
        KvTierConfig tier = new KvTierConfig(8, 0.0, 64, 0, KvTierConfig.Reload.STEP, 2_097_152);
        EngineConfig cfg = new EngineConfig(16, 1024, 0, 600, 16, 4, 0.9, true, tier);
        Engine[] engines = new Engine[2];
        for (int i = 0; i < 2; i++) {
            engines[i] = new Engine(i, cfg, LinearLatency.steps(1000, 0, 0),
                    Schedulers.REGISTRY.create(PolicySpec.of("fcfs", "policies.scheduler")), new EventQueue(16),
                    new EngineObserver() { });
        }
        ClusterView view = new ClusterView(engines, Observability.ALL_IMMEDIATE, routing.signalsRead());
        for (int i = 0; i < 2; i++) {
            KvCache kv = engines[i].kvCache();
            Request a = req(10 + i, TokenSequence.prefixed(77, 32, 1 + i, 8));
            assertTrue(kv.allocateNew(a, kv.lookupPrefix(a), 40));
            kv.release(a);
        }
        KvCache kv0 = engines[0].kvCache();
        Request c = req(20, TokenSequence.unique(5, 64));
        assertTrue(kv0.allocateNew(c, kv0.lookupPrefix(c), 64));
        kv0.release(c);
        assertEquals(2, kv0.offload().cpuResidentBlocks());
        return view;
    }

    @Test
    void cpuOnlyOverlapIsDiscounted() {
        // D: 40 tokens with prefix P: 3 prompt blocks, at most (40 - 1) / 16 = 2 reusable. No request
        // in flight, so cost = (3 - credited overlap) + 0 + 3 (overlap_weight 1):
        //   instance 1 (P on its GPU): 3 - 2 + 3 = 4;
        //   instance 0 (P only in CPU): 3 - 2w + 3 = 6 - 2w.
        Request d = req(30, TokenSequence.prefixed(77, 32, 9, 8));
        // w = 0.5: 5 > 4, the GPU holder wins.
        RoutingPolicy discounted = router(Map.of("cpu_hit_weight", 0.5));
        ClusterView v = prefixInCpuAtZeroGpuAtOne(discounted);
        assertEquals(1, discounted.route(d, v, 0));
        int[] gpu = v.prefixOverlapBlocks(d);
        assertEquals(0, gpu[0]);
        assertEquals(2, gpu[1]);
        int[] cpuOnly = v.cpuPrefixOverlapBlocks(d, gpu);
        assertEquals(2, cpuOnly[0]);
        assertEquals(0, cpuOnly[1]);
        // w = 1: 4 = 4, a tie, broken as before to the lowest instance.
        RoutingPolicy full = router(Map.of("cpu_hit_weight", 1.0));
        assertEquals(0, full.route(d, prefixInCpuAtZeroGpuAtOne(full), 0));
        // default (0): the CPU tier is invisible, as before: 6 > 4.
        RoutingPolicy dflt = router(Map.of());
        assertEquals(Set.of(Signal.PREFIX_CACHE), dflt.signalsRead());
        assertEquals(1, dflt.route(d, prefixInCpuAtZeroGpuAtOne(dflt), 0));
        assertEquals(Set.of(Signal.PREFIX_CACHE, Signal.CPU_PREFIX_CACHE), full.signalsRead());
    }

    @Test
    void snapshotCarriesPerTierFields() {
        ClusterView v = prefixInCpuAtZeroGpuAtOne(router(Map.of()));
        // instance 0: 2 of 8 CPU slots hold a copy; no hit yet anywhere (each prefix was seen once).
        InstanceSnapshot s0 = v.snapshot(0, 0);
        assertEquals(new InstanceSnapshot.Tiers(0.25, 0, 0), s0.tiers());
        assertEquals(0, v.snapshot(1, 0).tiers().kvCpuUtilization());
    }

    @Test
    void cpuHitWeightOutsideUnitIntervalFails() {
        assertThrows(ConfigException.class, () -> router(Map.of("cpu_hit_weight", 1.5)));
    }
}
