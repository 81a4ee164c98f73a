package io.servesim.workload.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.servesim.engine.EngineConfig;
import io.servesim.metrics.RequestRecord;
import io.servesim.run.LinearLatency;
import io.servesim.run.Runs;
import io.servesim.workload.TraceFormatException;
import io.servesim.workload.TraceSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Trace replay through the engine: Mooncake prefix reuse, concurrency mode and trace sessions. */
class ReplayModeTest {
    private static final int BLOCK = 16;

    private static Runs.Result run(TraceSpec spec, EngineConfig engine) {
        return Runs.run(engine, LinearLatency.steps(1000, 10, 100), "fcfs", "constant", spec.open(0, 0), 0);
    }

    private static List<RequestRecord> byId(Runs.Result res) {
        return res.records().stream().sorted(Comparator.comparingLong(RequestRecord::requestId)).toList();
    }

    /**
     * With one request in flight at a time and a cache that never evicts, request i hits exactly the
     * blocks that earlier requests registered: walking its hash ids in order, a hash id seen before
     * covers the tokens it covered then (512, or the 16-aligned part of a partial last block; the block
     * holding the prompt's end also holds output tokens and is never shared), and the first miss ends
     * the chain. The engine reuses at most (input - 1) / 16 blocks. For the 500-row slice this gives
     * 1,167,552 of 7,124,855 prompt tokens (16.39%; the same walk in Python agrees).
     */
    @Test
    void mooncakePrefixSharingGivesTheHitRateItsHashIdsImply() throws Exception {
        Path trace = TraceReaderTest.TRACES.resolve("mooncake_conversation_head500.jsonl");
        long expectedHits = 0;
        long inputTokens = 0;
        Map<Long, Integer> covered = new HashMap<>();
        ObjectMapper json = new ObjectMapper();
        for (String line : Files.readAllLines(trace)) {
            JsonNode row = json.readTree(line);
            int input = row.get("input_length").asInt();
            JsonNode ids = row.get("hash_ids");
            int cached = 0;
            for (int j = 0; j < ids.size(); j++) {
                int len = j < ids.size() - 1 ? 512 : input - 512 * (ids.size() - 1);
                int have = covered.getOrDefault(ids.get(j).asLong(), 0);
                cached += Math.min(have, len);
                if (have < len) {
                    break;
                }
            }
            expectedHits += (long) Math.min(cached / BLOCK, (input - 1) / BLOCK) * BLOCK;
            inputTokens += input;
            for (int j = 0; j < ids.size(); j++) {
                int len = j < ids.size() - 1 ? 512 : (input - 512 * (ids.size() - 1)) / BLOCK * BLOCK;
                covered.merge(ids.get(j).asLong(), len, Math::max);
            }
        }
        TraceSpec spec = new TraceSpec(TraceFormat.MOONCAKE, trace, ReplayMode.CONCURRENCY, 1, 1, false, 0);
        Runs.Result res = run(spec, new EngineConfig(256, 2048, 0, 0, BLOCK, 600_000, true));
        assertEquals(500, res.summary().count("completed"));
        assertEquals(0, res.summary().count("preemptions"));
        assertEquals(1_167_552, expectedHits);
        assertEquals((double) expectedHits / inputTokens, res.summary().number("prefix_hit_rate"), 1e-12);
    }

    @Test
    void concurrencyModeKeepsMaxInFlightResident() {
        Path trace = TraceReaderTest.TRACES.resolve("azure_code_every20.csv");
        // One in flight: each request arrives exactly when the previous one completes.
        List<RequestRecord> one = byId(run(new TraceSpec(TraceFormat.AZURE, trace, ReplayMode.CONCURRENCY, 1, 1, false, 60),
                Runs.engine(100_000)));
        assertEquals(60, one.size());
        assertEquals(0, one.get(0).arrivalUs());
        for (int i = 1; i < one.size(); i++) {
            assertEquals(one.get(i - 1).completionUs(), one.get(i).arrivalUs());
        }
        // Four in flight: the first four arrive at 0, and at every arrival at most four are resident.
        List<RequestRecord> four = byId(run(new TraceSpec(TraceFormat.AZURE, trace, ReplayMode.CONCURRENCY, 1, 4, false, 0),
                Runs.engine(100_000)));
        assertEquals(441, four.size());
        assertEquals(List.of(0L, 0L, 0L, 0L), four.subList(0, 4).stream().map(RequestRecord::arrivalUs).toList());
        assertTrue(four.get(4).arrivalUs() > 0);
        for (RequestRecord r : four) {
            long t = r.arrivalUs();
            long resident = four.stream().filter(o -> o.arrivalUs() <= t && o.completionUs() > t).count();
            assertTrue(resident <= 4, "resident " + resident + " at " + t);
        }
    }

    @Test
    void sessionTurnsUnlockAfterCompletionPlusDelay(@TempDir Path dir) throws Exception {
        // Sessions s1 (three turns) and s2 (one), plus a sessionless row, with two slots. s1's second
        // turn (delay 500 ms) waits behind its first; the free slot goes to s2 and then the plain row.
        Path trace = dir.resolve("sessions.jsonl");
        Files.writeString(trace, String.join("\n",
                "{\"session_id\": \"s1\", \"input_length\": 100, \"output_length\": 5}",
                "{\"session_id\": \"s1\", \"input_length\": 120, \"output_length\": 5, \"delay\": 500}",
                "{\"session_id\": \"s2\", \"input_length\": 300, \"output_length\": 50}",
                "{\"session_id\": \"s1\", \"input_length\": 140, \"output_length\": 5}",
                "{\"input_length\": 50, \"output_length\": 3}", ""));
        List<RequestRecord> rs = byId(run(new TraceSpec(TraceFormat.MOONCAKE, trace, ReplayMode.CONCURRENCY, 1, 2, false, 0),
                Runs.engine(10_000)));
        assertEquals(5, rs.size());
        RequestRecord s1t0 = rs.get(0);
        RequestRecord s2 = rs.get(1);
        assertEquals(List.of(100, 300), List.of(s1t0.inputTokens(), s2.inputTokens()));
        assertEquals(0, s1t0.arrivalUs());
        assertEquals(0, s2.arrivalUs());
        assertEquals(0, s1t0.turnIndex());
        RequestRecord s1t1 = rs.stream().filter(r -> r.inputTokens() == 120).findFirst().orElseThrow();
        RequestRecord s1t2 = rs.stream().filter(r -> r.inputTokens() == 140).findFirst().orElseThrow();
        assertEquals(s1t0.sessionId(), s1t1.sessionId());
        assertEquals(1, s1t1.turnIndex());
        assertEquals(2, s1t2.turnIndex());
        assertEquals(s1t0.completionUs() + 500_000, s1t1.arrivalUs());
        assertEquals(s1t1.completionUs(), s1t2.arrivalUs());
        assertEquals(-1, rs.stream().filter(r -> r.inputTokens() == 50).findFirst().orElseThrow().sessionId());
    }

    @Test
    void aDroppedTurnEndsTheTraceSession(@TempDir Path dir) throws Exception {
        // max_model_len 110: s1's 120-token second turn is dropped, so its third turn is never replayed.
        Path trace = dir.resolve("sessions.jsonl");
        Files.writeString(trace, String.join("\n",
                "{\"session_id\": 7, \"input_length\": 100, \"output_length\": 5}",
                "{\"session_id\": 7, \"input_length\": 120, \"output_length\": 5}",
                "{\"session_id\": 7, \"input_length\": 60, \"output_length\": 5}",
                "{\"input_length\": 50, \"output_length\": 3}", ""));
        Runs.Result res = run(new TraceSpec(TraceFormat.MOONCAKE, trace, ReplayMode.CONCURRENCY, 1, 1, false, 0),
                new EngineConfig(256, 2048, 0, 110, 16, 10_000, true));
        assertEquals(3, res.summary().count("injected"));
        assertEquals(1, res.summary().count("dropped"));
        assertTrue(res.records().stream().noneMatch(r -> r.inputTokens() == 60));
    }

    /**
     * Trace mode releases a follow-up turn its delay after the previous turn completes, not at its own timestamp
     * (NVIDIA Dynamo's mocker trace mode), both divided by arrival_speedup_ratio (2 here). Steps cost
     * 1000 us + 10 us per prefill token + 100 us per decode token, and no two requests overlap:
     * <ul>
     *   <li>a0 (100 in, 5 out) arrives at 0: prefill 1000 + 1000 = 2000 us, first token at 2000, four decodes of
     *       1100 us: completes at 6400.</li>
     *   <li>a1 says timestamp 5 ms (it used to arrive at 2.5 ms, before a0 finished) but delay 500 ms: it arrives at
     *       6400 + 500000 / 2 = 256400; prefill 1000 + 1200 = 2200, four decodes: completes at 256400 + 6600 = 263000.</li>
     *   <li>the sessionless row at 1000 ms arrives at 500000 and completes at 500000 + 1500 + 2 x 1100 = 503700.</li>
     *   <li>a2 gives no delay: it takes the gap between its timestamp and a1's, 1200 - 5 = 1195 ms, halved: it arrives
     *       at 263000 + 597500 = 860500 (its own timestamp would say 600000) and completes at
     *       860500 + 2400 + 1100 = 864000.</li>
     * </ul>
     */
    @Test
    void traceModeReleasesAFollowUpItsDelayAfterThePreviousTurnCompletes(@TempDir Path dir) throws Exception {
        Path trace = dir.resolve("sessions.jsonl");
        Files.writeString(trace, String.join("\n",
                "{\"timestamp\": 0, \"session_id\": \"a\", \"input_length\": 100, \"output_length\": 5}",
                "{\"timestamp\": 5, \"session_id\": \"a\", \"input_length\": 120, \"output_length\": 5, \"delay\": 500}",
                "{\"timestamp\": 1000, \"input_length\": 50, \"output_length\": 3}",
                "{\"timestamp\": 1200, \"session_id\": \"a\", \"input_length\": 140, \"output_length\": 2}", ""));
        List<RequestRecord> rs = byId(run(new TraceSpec(TraceFormat.MOONCAKE, trace, ReplayMode.TRACE, 2, 0, false, 0),
                Runs.engine(10_000)));
        // ids in creation order: the sessionless row is read ahead when a0 arrives, a1 made when a0 completes
        assertEquals(List.of(100, 50, 120, 140), rs.stream().map(RequestRecord::inputTokens).toList());
        assertEquals(List.of(0L, 500_000L, 256_400L, 860_500L), rs.stream().map(RequestRecord::arrivalUs).toList());
        assertEquals(List.of(6_400L, 503_700L, 263_000L, 864_000L), rs.stream().map(RequestRecord::completionUs).toList());
        assertEquals(List.of(0, 0, 1, 2), rs.stream().map(RequestRecord::turnIndex).toList());
        assertEquals(-1, rs.get(1).sessionId());
    }

    /**
     * A follow-up whose line the replay reaches after its previous turn completed is released then: b0 completes at
     * 6400 (as a0 above), and its follow-up (delay 1 ms) is listed after the row arriving at 100 ms, so it arrives at
     * max(6400 + 1000, 100000) = 100000, with that row.
     */
    @Test
    void aFollowUpListedAfterItsReleaseArrivesWhenTheReplayReachesItsLine(@TempDir Path dir) throws Exception {
        Path trace = dir.resolve("late.jsonl");
        Files.writeString(trace, String.join("\n",
                "{\"timestamp\": 0, \"session_id\": \"b\", \"input_length\": 100, \"output_length\": 5}",
                "{\"timestamp\": 100, \"input_length\": 50, \"output_length\": 3}",
                "{\"timestamp\": 100, \"session_id\": \"b\", \"input_length\": 60, \"output_length\": 2, \"delay\": 1}", ""));
        List<RequestRecord> rs = byId(run(new TraceSpec(TraceFormat.MOONCAKE, trace, ReplayMode.TRACE, 1, 0, false, 0),
                Runs.engine(10_000)));
        assertEquals(List.of(0L, 100_000L, 100_000L), rs.stream().map(RequestRecord::arrivalUs).toList());
        assertEquals(6_400L, rs.get(0).completionUs());
    }

    /**
     * A file listing each session's turns together (as Dynamo's and AIPerf's multi-turn traces do) replays in trace mode:
     * only rows arriving at their timestamps (a0 at 0, b0 at 1 s) need be in order; a follow-up arrives its delay (here
     * implied by the timestamps: 5 s) after its previous turn completes, a0 and b0 each taking 6.4 ms on an idle engine
     * (as a0 above): a1 at 6,400 + 5,000,000 us, b1 at 1,006,400 + 5,000,000 us.
     */
    @Test
    void aFileListingASessionsTurnsTogetherReplaysInTraceMode(@TempDir Path dir) throws Exception {
        Path trace = dir.resolve("grouped.jsonl");
        Files.writeString(trace, String.join("\n",
                "{\"timestamp\": 0, \"session_id\": \"a\", \"input_length\": 100, \"output_length\": 5}",
                "{\"timestamp\": 5000, \"session_id\": \"a\", \"input_length\": 120, \"output_length\": 5}",
                "{\"timestamp\": 1000, \"session_id\": \"b\", \"input_length\": 100, \"output_length\": 5}",
                "{\"timestamp\": 6000, \"session_id\": \"b\", \"input_length\": 120, \"output_length\": 5}", ""));
        List<RequestRecord> rs = byId(run(new TraceSpec(TraceFormat.MOONCAKE, trace, ReplayMode.TRACE, 1, 0, false, 0),
                Runs.engine(10_000)));
        assertEquals(List.of(0L, 1_000_000L, 5_006_400L, 6_006_400L), rs.stream().map(RequestRecord::arrivalUs).toList());
        assertEquals(List.of(0, 0, 1, 1), rs.stream().map(RequestRecord::turnIndex).toList());
        // the rows arriving at their timestamps must still be in order
        Files.writeString(trace, String.join("\n",
                "{\"timestamp\": 1000, \"session_id\": \"a\", \"input_length\": 100, \"output_length\": 5}",
                "{\"timestamp\": 5000, \"session_id\": \"a\", \"input_length\": 120, \"output_length\": 5}",
                "{\"timestamp\": 0, \"session_id\": \"b\", \"input_length\": 100, \"output_length\": 5}", ""));
        TraceFormatException e = assertThrows(TraceFormatException.class, () -> run(new TraceSpec(TraceFormat.MOONCAKE,
                trace, ReplayMode.TRACE, 1, 0, false, 0), Runs.engine(10_000)));
        assertEquals(trace + ":3: timestamp 0 us is before line 1's (rows other than a session's follow-up turns arrive in"
                + " file order) 1000000 us", e.getMessage());
    }

    /** A dropped turn ends its session in trace mode too: max_model_len 110 drops a1, so a2 is never replayed. */
    @Test
    void aDroppedTurnEndsTheSessionInTraceMode(@TempDir Path dir) throws Exception {
        Path trace = dir.resolve("drop.jsonl");
        Files.writeString(trace, String.join("\n",
                "{\"timestamp\": 0, \"session_id\": \"a\", \"input_length\": 100, \"output_length\": 5}",
                "{\"session_id\": \"a\", \"input_length\": 120, \"output_length\": 5, \"delay\": 2}",
                "{\"session_id\": \"a\", \"input_length\": 60, \"output_length\": 5, \"delay\": 2}",
                "{\"timestamp\": 50, \"input_length\": 50, \"output_length\": 3}", ""));
        Runs.Result res = run(new TraceSpec(TraceFormat.MOONCAKE, trace, ReplayMode.TRACE, 1, 0, false, 0),
                new EngineConfig(256, 2048, 0, 110, 16, 10_000, true));
        assertEquals(3, res.summary().count("injected"));
        assertEquals(1, res.summary().count("dropped"));
        assertTrue(res.records().stream().noneMatch(r -> r.inputTokens() == 60));
    }
}
