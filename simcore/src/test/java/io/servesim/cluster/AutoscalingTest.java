package io.servesim.cluster;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.servesim.engine.Request;
import io.servesim.metrics.RequestRecord;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The autoscaler's observable behaviour on small clusters ({@link AutoscalingFixture}). */
class AutoscalingTest {
    private static final Map<String, Object> IN_FLIGHT_THRESHOLD =
            Map.of("signal", "in_flight", "scale_up", 12.0, "scale_down", 2.0, "cooldown", "10s");

    /**
     * The fleet follows a step in the rate with the analytic lag. At 20 s the rate jumps from 5 to
     * 200 req/s; one replica completes a 400 + 100-token request in about 100 steps, so in-flight
     * requests pile up within the first second and the first check after 20 s (checks every 1 s: at
     * 21 s at the latest) sees them far above 12 and scales up. That replica is ready provisioning
     * (2 s) + weights (1 s) + warm-up (2 s) = 5 s after the decision: between 25 s and 26 s. Every
     * replica's time to ready is exactly 5 s. When the rate falls back at 60 s the fleet shrinks again.
     */
    @Test
    void fleetFollowsTheRateWithProvisioningLoadAndWarmupLag() {
        var o = AutoscalingFixture.run(AutoscalingFixture.setup(1, AutoscalingFixture.config(1, 6, 1_000_000, DrainPolicy.WAIT),
                "least-loaded", "threshold", IN_FLIGHT_THRESHOLD), AutoscalingFixture.stepLoad());
        long firstReady = o.firstTimeReadyAbove(1);
        assertTrue(firstReady >= 25_000_000 && firstReady <= 26_000_000, "first new replica ready at " + firstReady);
        var a = o.summary().autoscaling();
        assertEquals(5.0, a.timeToReadyMeanS(), 1e-9);
        assertEquals(5.0, a.timeToReadyMaxS(), 1e-9);
        assertTrue(a.peakReplicas() > 2, "peak " + a.peakReplicas());
        assertTrue(a.scaleDowns() > 0, "scaled back down after the peak");
        assertEquals(0, a.oscillations());
    }

    /**
     * With a CPU KV tier, the replicas retired after the peak take their tier counters into the run's
     * {@code kv_tiers} as they take their hits into its prefix hit rate: the two tier rates still add
     * up to it (they covered the live replicas only before), and the retired tiers' transfers count.
     */
    @Test
    void retiredReplicasKeepTheirKvTierCounters() {
        var tier = new io.servesim.engine.KvTierConfig(4000, 0.0, 64, 0, io.servesim.engine.KvTierConfig.Reload.BLOCKING,
                2_097_152);
        var o = AutoscalingFixture.run(AutoscalingFixture.setup(AutoscalingFixture.ENGINE.withKvTiers(tier), 1,
                AutoscalingFixture.config(1, 6, 1_000_000, DrainPolicy.WAIT), "least-loaded", "threshold", IN_FLIGHT_THRESHOLD),
                AutoscalingFixture.stepLoad());
        var s = o.summary();
        assertTrue(s.autoscaling().scaleDowns() > 0, "replicas retired");
        assertEquals(s.number("prefix_hit_rate"), s.kvTiers().gpuHitRate() + s.kvTiers().cpuHitRate(), 1e-12);
        assertEquals(4000, s.kvTiers().cpuKvBlocks());
    }

    /**
     * An autoscaled run ends with its last request's work, not at the scale check pending after it:
     * the same steady load (a request every 20 ms for 30 s) with checks every 1 s and every 1,000 s
     * lasts from the first arrival to the last completion in both (it lasted until the 1,000 s check
     * before, 33x too long, with replica-seconds, cost and mean replicas to match).
     */
    @Test
    void runEndsAtTheLastCompletionNotAtTheNextCheck() {
        for (long checkUs : new long[] {1_000_000, 1_000_000_000}) {
            var o = AutoscalingFixture.run(AutoscalingFixture.setup(1, AutoscalingFixture.config(1, 4, checkUs, DrainPolicy.WAIT),
                    "least-loaded", "threshold", IN_FLIGHT_THRESHOLD), AutoscalingFixture.steady(0, 0, 30_000_000, 20_000));
            long first = o.records().stream().mapToLong(r -> r.arrivalUs()).min().orElseThrow();
            long last = o.records().stream().mapToLong(r -> r.completionUs()).max().orElseThrow();
            assertEquals((last - first) / 1e6, o.summary().number("duration_s"), 1e-6,
                    "check every " + checkUs + " us");
        }
    }

    /**
     * Goodput per GPU of an autoscaled fleet is per GPU held on average: goodput_rps / (mean replicas x TP 1),
     * and its {@code gpus} the peak replicas x TP (the fixture's initial fleet of 1 would overstate the
     * goodput per GPU by the mean replicas, > 2 here).
     */
    @Test
    void goodputPerGpuDividesByTheMeanFleet() {
        var o = AutoscalingFixture.run(AutoscalingFixture.setup(1, AutoscalingFixture.config(1, 6, 1_000_000, DrainPolicy.WAIT),
                "least-loaded", "threshold", IN_FLIGHT_THRESHOLD), AutoscalingFixture.stepLoad());
        var a = o.summary().autoscaling();
        assertTrue(a.meanReplicas() > 2, "mean replicas " + a.meanReplicas());
        assertEquals(a.peakReplicas(), o.summary().pd().gpus());
        assertEquals(o.summary().cluster().goodputRps() / a.meanReplicas(), o.summary().pd().goodputPerGpuRps(), 1e-12);
    }

    /** The oscillator flips at every check; threshold with a cooldown on a steady load never reverses itself. */
    @Test
    void oscillatorOscillatesWhereThresholdWithCooldownDoesNot() {
        List<Request> steady = AutoscalingFixture.steady(0, 0, 30_000_000, 20_000);
        var osc = AutoscalingFixture.run(AutoscalingFixture.setup(2, AutoscalingFixture.config(1, 4, 1_000_000, DrainPolicy.WAIT),
                "round-robin", "oscillator", Map.of()), steady);
        var thr = AutoscalingFixture.run(AutoscalingFixture.setup(2, AutoscalingFixture.config(1, 4, 1_000_000, DrainPolicy.WAIT),
                "round-robin", "threshold", IN_FLIGHT_THRESHOLD), AutoscalingFixture.steady(0, 0, 30_000_000, 20_000));
        assertTrue(osc.summary().autoscaling().oscillations() > 0);
        assertEquals(0, thr.summary().autoscaling().oscillations());
    }

    /**
     * Under every drain policy each request leaves exactly once: injected = completed + dropped +
     * rejected + unfinished. Checks every 6 s (longer than the 5 s start-up) so the oscillator's
     * scale-downs drain ready replicas that hold work rather than cancel starting ones.
     */
    @ParameterizedTest
    @EnumSource(DrainPolicy.class)
    void drainsNeitherLoseNorDuplicateRequests(DrainPolicy drain) {
        List<Request> load = AutoscalingFixture.stepLoad();
        var o = AutoscalingFixture.run(AutoscalingFixture.setup(3, AutoscalingFixture.config(1, 5, 6_000_000, drain),
                "least-loaded", "oscillator", Map.of()), load);
        var s = o.summary();
        assertEquals(load.size(), s.count("injected"));
        assertEquals(s.count("injected"),
                s.count("completed") + s.count("dropped") + s.count("rejected") + s.count("unfinished"));
        Set<Long> ids = new HashSet<>();
        for (RequestRecord r : o.records()) {
            assertTrue(ids.add(r.requestId()), "request " + r.requestId() + " reported twice");
        }
        assertEquals(load.size(), ids.size());
        assertTrue(s.autoscaling().scaleDowns() > 0);
        if (drain == DrainPolicy.IMMEDIATE) {
            assertTrue(s.autoscaling().drainRecomputed() > 0, "an immediate drain recomputes the victim's requests");
        }
        if (drain == DrainPolicy.WAIT) {
            assertEquals(0, s.autoscaling().drainRerouted());
        } else {
            assertTrue(s.autoscaling().drainRerouted() > 0, "a " + drain + " drain moves queued requests");
        }
        // requests per instance: one count per request, at the replica that served it, over the slots that held one
        long[] perInstance = s.cluster().requestsPerInstance();
        assertEquals(o.slotsUsed(), perInstance.length);
        assertTrue(perInstance.length <= s.autoscaling().peakReplicas(), "slots used " + perInstance.length);
        long[] served = new long[perInstance.length];
        o.records().forEach(r -> served[r.instanceId()]++);
        assertArrayEquals(served, perInstance);
        assertEquals(s.count("injected"), java.util.Arrays.stream(perInstance).sum());
    }

    /**
     * The replicas retired after the peak take their preempted readmissions' prefix lookups into the
     * run's {@code preempted_prefix_hit_rate} (and their preemptions into its count), as they take their
     * first admissions' into the hit rate. 300 blocks of 16 tokens hold 4,800 tokens, less than 16
     * running 500-token requests need (16 x 32 blocks = 512): the high phase preempts on every replica;
     * 200 s of low load after it retire all but one.
     */
    @Test
    void retiredReplicasKeepTheirPreemptionCounters() {
        var engine = new io.servesim.engine.EngineConfig(16, 1024, 0, 0, 16, 300, true);
        List<Request> load = new java.util.ArrayList<>(AutoscalingFixture.stepLoad());
        load.addAll(AutoscalingFixture.steady(load.size(), 100_000_000, 300_000_000, 200_000));
        var o = AutoscalingFixture.run(AutoscalingFixture.setup(engine, 1, AutoscalingFixture.config(1, 6, 1_000_000,
                DrainPolicy.WAIT), "least-loaded", "threshold", IN_FLIGHT_THRESHOLD), load);
        var retired = o.retired();
        assertTrue(retired.preemptedQueriedTokens() > 0, "a retired replica readmitted preempted requests");
        var all = new io.servesim.engine.EngineTotals();
        all.add(retired);
        for (var e : o.liveEngines()) {
            all.add(e);
        }
        var s = o.summary();
        assertEquals((double) all.preemptedHitTokens() / all.preemptedQueriedTokens(),
                s.number("preempted_prefix_hit_rate"), 1e-12);
        assertEquals(all.preemptions(), s.count("preemptions"));
        assertTrue(all.preemptions() > retired.preemptions(), "live replicas preempted too");
    }

    /**
     * Every request shares a 256-token prefix. Round-robin over the ready replicas: once the second
     * replica is ready, its first request misses the prefix that the first replica (warm since the
     * start) hits, as a new replica starts with an empty prefix cache.
     */
    @Test
    void aNewReplicaStartsWithAnEmptyPrefixCache() {
        var o = AutoscalingFixture.run(AutoscalingFixture.setup(1, AutoscalingFixture.config(1, 2, 1_000_000, DrainPolicy.WAIT),
                "round-robin", "threshold", Map.of("signal", "in_flight", "scale_up", 0.5, "scale_down", 0.1, "cooldown", "60s")),
                AutoscalingFixture.steady(0, 0, 20_000_000, 100_000));
        RequestRecord firstOnNew = o.records().stream().filter(r -> r.instanceId() == 1)
                .min((a, b) -> Long.compare(a.arrivalUs(), b.arrivalUs())).orElseThrow();
        assertEquals(0, firstOnNew.prefixHitTokens(), "first request on the new replica");
        RequestRecord lastOnOld = o.records().stream().filter(r -> r.instanceId() == 0 && r.arrivalUs() < firstOnNew.arrivalUs())
                .max((a, b) -> Long.compare(a.arrivalUs(), b.arrivalUs())).orElseThrow();
        assertTrue(lastOnOld.prefixHitTokens() >= 256, "the old replica hits the shared prefix: " + lastOnOld.prefixHitTokens());
    }
}
