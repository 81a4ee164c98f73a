package io.servesim.disagg;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.servesim.decisions.DecisionKind;
import io.servesim.decisions.DecisionRecord;
import io.servesim.decisions.TraceLevel;
import io.servesim.decisions.TraceOptions;
import io.servesim.metrics.Handoff;
import io.servesim.metrics.RequestRecord;
import io.servesim.testing.RepoFiles;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * P/D runs end to end through the kernel (with assertions on, so {@link PdInvariants} checks single
 * ownership and per-pool KV conservation at every handoff event and the engines check INV-4 after
 * every step).
 */
class PdRunTest {
    @Test
    void everyRequestPassesPrefillTransferDecodeExactlyOnceUnderAlways() {
        PdRuns.Result r = PdRuns.run(PdRuns.BASE);
        var s = r.summary();
        assertEquals(300, s.count("completed"));
        assertEquals(300, s.pd().remote());
        assertEquals(0, s.pd().local());
        assertEquals(300, s.pd().transfers(), "one transfer per request");
        long[] routed = s.cluster().requestsPerInstance();
        assertEquals(300, routed[0] + routed[1], "each request routed once over the prefill pool");
        assertEquals(300, routed[2] + routed[3], "and once over the decode pool");
        Set<Long> ids = new HashSet<>();
        for (RequestRecord rec : r.records()) {
            assertTrue(ids.add(rec.requestId()));
            Handoff h = rec.handoff();
            assertTrue(h.prefillInstance() == 0 || h.prefillInstance() == 1, rec.toString());
            assertTrue(h.decodeInstance() == 2 || h.decodeInstance() == 3, rec.toString());
            assertEquals(h.decodeInstance(), rec.instanceId(), "the decode instance serves it to the end");
            // P -> transfer -> D: arrival <= first token (prefill's) ... transfer start < end <= second token <= completion
            assertTrue(rec.arrivalUs() <= rec.firstTokenUs() && rec.firstTokenUs() <= h.transferStartUs() + 1000,
                    rec.toString());
            assertTrue(h.transferStartUs() < h.transferEndUs() && h.transferEndUs() <= rec.completionUs(), rec.toString());
            assertTrue(h.decodeAllocWaitUs() >= 0 && h.bandwidthWaitUs() >= 0, rec.toString());
        }
        assertEquals(s.pd().transferBytes(), r.records().stream().mapToLong(rec -> rec.inputTokens() * 131_072L).sum(),
                "bytes = prompt tokens x 131,072 B/token (Llama-3.1-8B, TP 1 both pools)");
    }

    @Test
    void neverIsTheAggregatedFleetOfTheDecodePool() {
        PdRuns.Result pd = PdRuns.run(PdRuns.BASE, "deployment.pd.decider=never");
        PdRuns.Result agg = PdRuns.run(PdRuns.BASE, "deployment.architecture=aggregated", "deployment.pd=null",
                "deployment.instances=2", "policies.routing=least-loaded");
        assertEquals(300, pd.summary().pd().local());
        assertEquals(0, pd.summary().pd().transfers());
        assertEquals(agg.records().size(), pd.records().size());
        for (int i = 0; i < agg.records().size(); i++) {
            RequestRecord a = agg.records().get(i);
            RequestRecord p = pd.records().get(i);
            // the decode pool's engines follow the two prefill engines' ids
            RequestRecord moved = new RequestRecord(a.requestId(), a.instanceId() + 2, a.clientId(), a.tenantId(), a.sloClass(),
                    a.sessionId(), a.turnIndex(), a.priority(), a.streaming(), a.inputTokens(), a.outputTokens(),
                    a.requestedOutputTokens(), a.prefixHitTokens(), a.preemptions(), a.arrivalUs(), a.enqueueUs(),
                    a.firstScheduledUs(), a.firstTokenUs(), a.completionUs(), a.ttftUs(), a.e2eUs(), a.meanItlUs(),
                    a.schedulingDelayUs(), a.queueingDelayUs(), a.status(), a.dropReason(), a.lengthCapped(), a.stepId(),
                    a.loopIteration(), a.fanOutIndex(), a.cpuHitTokens(), a.sendUs(), a.clientTtftUs(), a.clientE2eUs(),
                    Handoff.NONE, a.reasoningTokens(), a.firstAnswerTokenUs(),
                    a.mediaTokens());
            assertEquals(moved, p);
        }
        assertEquals(agg.summary().distribution("ttft_ms"), pd.summary().distribution("ttft_ms"));
        assertEquals(agg.summary().distribution("tpot_ms"), pd.summary().distribution("tpot_ms"));
    }

    @Test
    void aTransferAloneTakesLatencyPlusBytesOverBandwidth() {
        // 1,000 prompt tokens x 131,072 B/token = 131,072,000 B at 50 GB/s (50,000 B/us) = 2,621.44 -> 2,622 us,
        // plus the 1 ms latency: 3,622 us from the decode blocks' reservation to the KV's arrival.
        PdRuns.Result r = PdRuns.run(PdRuns.BASE, "workload.num_requests=1",
                "workload.input_distribution={type: constant, params: {value: 1000}}", "workload.prefix=null");
        Handoff h = r.records().get(0).handoff();
        assertEquals(3622, h.transferEndUs() - h.transferStartUs());
        assertEquals(0, h.bandwidthWaitUs());
        assertEquals(0, h.decodeAllocWaitUs());
    }

    @Test
    void aSharedFabricMakesConcurrentTransfersWaitForBandwidth() {
        PdRuns.Result perPair = PdRuns.run(PdRuns.BASE, "deployment.pd.transfer.bandwidth=2GB/s");
        PdRuns.Result shared = PdRuns.run(PdRuns.BASE, "deployment.pd.transfer.bandwidth=2GB/s",
                "deployment.pd.transfer.topology=shared");
        double perPairWait = perPair.summary().pd().bandwidthWaitMs().mean();
        double sharedWait = shared.summary().pd().bandwidthWaitMs().mean();
        assertTrue(sharedWait > perPairWait, "one fabric: " + sharedWait + " ms, a link per pair: " + perPairWait + " ms");
        assertTrue(sharedWait > 0);
        assertEquals(300, shared.summary().count("completed"));
    }

    @Test
    void aFullDecodeCacheMakesTransfersWaitForBlocksAndEveryRequestStillCompletes() {
        PdRuns.Result r = PdRuns.run(PdRuns.BASE, "deployment.pd.decode.engine={total_kv_blocks: 1200}", "engine.max_model_len=8192",
                "workload.aggregate_rate=40");
        var s = r.summary();
        assertTrue(s.pd().blockWaits() > 0, "transfers waited for decode blocks");
        assertEquals(300, s.count("completed"));
        assertTrue(r.records().stream().anyMatch(rec -> rec.handoff().decodeAllocWaitUs() > 0));
    }

    @Test
    void thePrefixThresholdDeciderDisaggregatesOnlyLongUncachedPrompts() {
        PdRuns.Result r = PdRuns.run(PdRuns.BASE, "deployment.pd.decider=prefix-threshold",
                "deployment.pd.prefix_threshold_tokens=1500");
        var s = r.summary();
        assertTrue(s.pd().remote() > 0 && s.pd().local() > 0, s.pd().toString());
        for (RequestRecord rec : r.records()) {
            // the uncached part is at most the prompt: a prompt within the threshold is never remote
            if (rec.inputTokens() <= 1500) {
                assertEquals(-1, rec.handoff().prefillInstance(), rec.toString());
            }
        }
    }

    @Test
    void aHorizonReportsEveryRequestOnceWhateverItsStage() {
        PdRuns.Result r = PdRuns.run(PdRuns.BASE, "horizon_us=8000000", "workload.aggregate_rate=60",
                "deployment.pd.transfer.bandwidth=1GB/s");
        var s = r.summary();
        assertTrue(s.count("unfinished") > 0);
        assertEquals(s.count("injected"), s.count("completed") + s.count("dropped") + s.count("unfinished"));
        assertEquals(s.count("injected"), r.records().stream().map(RequestRecord::requestId).distinct().count());
        assertEquals(s.count("injected"), r.records().size());
    }

    @Test
    void decisionTracesRecordTheChoiceAndBothPoolsRouting() {
        List<DecisionRecord> decisions = PdRuns.trace(new TraceOptions(TraceLevel.DECISIONS, 0), PdRuns.BASE,
                "workload.num_requests=20");
        for (long id = 0; id < 20; id++) {
            long request = id;
            List<DecisionRecord> mine = decisions.stream().filter(d -> d.requestId() == request).toList();
            // admission, priority, the P/D decision, prefill routing (kv-router over engines 0-1), decode routing
            // (least-loaded over engines 2-3)
            assertEquals(List.of(DecisionKind.ADMISSION, DecisionKind.PRIORITY, DecisionKind.DISAGGREGATION,
                    DecisionKind.ROUTING, DecisionKind.ROUTING), mine.stream().map(DecisionRecord::kind).toList());
            assertEquals("remote", mine.get(2).outcome());
            assertEquals("kv-router", mine.get(3).policy());
            assertTrue(mine.get(3).instance() < 2);
            assertEquals("least-loaded", mine.get(4).policy());
            assertTrue(mine.get(4).instance() >= 2);
        }
    }

    @Test
    void theDecodeRouterIsConfigurableAndRoundRobinTakesTheDecodeInstancesInTurn() {
        List<DecisionRecord> decode = PdRuns.trace(new TraceOptions(TraceLevel.DECISIONS, 0), PdRuns.BASE,
                "workload.num_requests=20", "deployment.pd.decode_routing=round-robin").stream()
                .filter(d -> d.kind() == DecisionKind.ROUTING && d.instance() >= 2).toList();
        // one decode routing per request, as prefills finish: engines 2, 3, 2, 3, ...
        assertEquals(20, decode.size());
        for (int i = 0; i < decode.size(); i++) {
            assertEquals("round-robin", decode.get(i).policy());
            assertEquals(2 + i % 2, decode.get(i).instance(), decode.get(i).toString());
        }
        // a router that reads a prefix cache only through a weight is overlap-blind with the weight at 0
        PdRuns.Result weighted = PdRuns.run(PdRuns.BASE,
                "deployment.pd.decode_routing={name: weighted-scoring, params: {cache_affinity: 0}}");
        assertEquals(300, weighted.summary().count("completed"));
        assertEquals(PdRuns.run(PdRuns.BASE, "deployment.pd.decode_routing=least-loaded").records(), PdRuns.run(PdRuns.BASE)
                .records(), "least-loaded is the default");
    }

    @Test
    void sameConfigAndSeedGiveTheSameRows() {
        assertEquals(PdRuns.run(PdRuns.BASE).records(), PdRuns.run(PdRuns.BASE).records());
    }

    @Test
    void aMooncakeReplayCompletesWithEveryRequestAccountedFor() {
        Path trace = RepoFiles.data("traces/mooncake_fast25/conversation_trace.jsonl");
        PdRuns.Result r = PdRuns.run(PdRuns.BASE, Path.of(""), "workload={version: '2', trace: {format: mooncake, path: "
                + trace.toAbsolutePath().normalize() + ", max_requests: 600}}");
        var s = r.summary();
        assertEquals(600, s.count("injected"));
        assertEquals(s.count("injected"),
                s.count("completed") + s.count("dropped") + s.count("rejected") + s.count("unfinished"));
        assertEquals(0, s.count("unfinished"));
        assertEquals(s.count("completed") + s.count("dropped"), r.records().size());
        assertEquals(s.pd().remote(), s.pd().transfers() + r.records().stream()
                .filter(rec -> rec.status().equals(RequestRecord.DROPPED) && rec.handoff().prefillInstance() >= 0).count());
        List<RequestRecord> completed = r.records().stream().filter(rec -> rec.status().equals(RequestRecord.COMPLETED)).toList();
        assertTrue(completed.stream().allMatch(rec -> rec.handoff().transferEndUs() > 0));
    }
}
