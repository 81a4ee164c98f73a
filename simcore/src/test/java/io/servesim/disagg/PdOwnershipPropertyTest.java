package io.servesim.disagg;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.servesim.metrics.Handoff;
import io.servesim.metrics.RequestRecord;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * Invariants of P/D runs over random deployments: pool sizes, either engine core in either pool, deciders, topologies,
 * link speeds, decode caches small enough to make transfers wait for blocks, and horizons that cut requests mid-handoff.
 * Assertions are on, so {@link PdInvariants} checks at every handoff event that each request's KV has
 * exactly one owner and that per pool every engine's used + free blocks equal its total and the
 * prefill pool keeps exactly the blocks of the stages that still own their KV; engine INV-4 runs after
 * every step. From outside: INV-1, every request once, and under {@code always} every completed
 * request passed prefill -> transfer -> decode exactly once.
 */
class PdOwnershipPropertyTest {
    private static final String[] DECIDERS = {"always", "never", "prefix-threshold"};

    @Property(tries = 40)
    void ownershipAndConservationHoldOnRandomDeployments(@ForAll @IntRange(min = 1, max = 3) int prefill,
                                                         @ForAll @IntRange(min = 1, max = 3) int decode,
                                                         @ForAll @IntRange(min = 0, max = 2) int decider,
                                                         @ForAll boolean shared,
                                                         @ForAll @IntRange(min = 1, max = 100) int bandwidthGb,
                                                         @ForAll @IntRange(min = 0, max = 3000) int latencyUs,
                                                         @ForAll @IntRange(min = 700, max = 4000) int decodeBlocks,
                                                         @ForAll @IntRange(min = 2, max = 60) int rate,
                                                         @ForAll boolean horizon,
                                                         @ForAll boolean prefillSglang,
                                                         @ForAll boolean decodeSglang,
                                                         @ForAll @IntRange(min = 0, max = 1000) int seed) {
        // an SGLang pool at page_size 16, the vLLM pools' block size (the top-level engine's vLLM-only keys drop out)
        String sglang = "kind: sglang, page_size: 16, ";
        PdRuns.Result r = PdRuns.run(PdRuns.BASE, "seed=" + seed, "workload.num_requests=150",
                "workload.aggregate_rate=" + rate,
                "deployment.pd.prefill.replicas=" + prefill, "deployment.pd.decode.replicas=" + decode,
                "deployment.pd.decider=" + DECIDERS[decider],
                "deployment.pd.transfer={latency: " + latencyUs + "us, bandwidth: " + bandwidthGb + "GB/s, topology: "
                        + (shared ? "shared" : "per-pair") + "}",
                "deployment.pd.prefill.engine={" + (prefillSglang ? sglang : "") + "max_num_seqs: 64}",
                "deployment.pd.decode.engine={" + (decodeSglang ? sglang : "") + "total_kv_blocks: " + decodeBlocks + "}",
                "engine.max_model_len=8192",
                "horizon_us=" + (horizon ? 3_000_000 : 0));
        var s = r.summary();
        assertEquals(s.count("injected"),
                s.count("completed") + s.count("dropped") + s.count("rejected") + s.count("unfinished"), "INV-1");
        assertEquals(s.count("injected"), r.records().stream().map(RequestRecord::requestId).distinct().count(),
                "each once");
        assertEquals(s.count("injected"), r.records().size());
        if (!horizon) {
            assertEquals(0, s.count("unfinished"));
        }
        assertEquals(s.count("injected"), s.pd().remote() + s.pd().local(), "one decision per request");
        for (RequestRecord rec : r.records()) {
            Handoff h = rec.handoff();
            boolean remote = h.prefillInstance() >= 0;
            if (remote) {
                assertTrue(h.prefillInstance() < prefill && h.decodeInstance() >= prefill || h.decodeInstance() == -1, rec.toString());
            }
            if (rec.status().equals(RequestRecord.COMPLETED)) {
                assertEquals(rec.requestedOutputTokens(), rec.outputTokens(), "the budget, no token beyond: " + rec);
                if (DECIDERS[decider].equals("always")) {
                    assertTrue(remote && h.transferStartUs() >= 0 && h.transferEndUs() >= h.transferStartUs()
                            && rec.instanceId() == h.decodeInstance(), "P -> transfer -> D: " + rec);
                }
                if (remote && rec.outputTokens() == 1) {
                    assertTrue(h.transferEndUs() == rec.completionUs() && rec.meanItlUs() == 0,
                            "its only token came with the prefill; it ends as its KV arrives: " + rec);
                }
                if (DECIDERS[decider].equals("never")) {
                    assertEquals(Handoff.NONE, h);
                }
            }
        }
        if (!horizon && DECIDERS[decider].equals("always")) {
            assertEquals(s.count("completed"), s.pd().transfers(), "exactly one transfer per completed request");
        }
    }
}
