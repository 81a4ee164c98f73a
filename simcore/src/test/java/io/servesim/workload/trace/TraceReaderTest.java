package io.servesim.workload.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.servesim.engine.Request;
import io.servesim.workload.RequestSource;
import io.servesim.workload.TraceFormatException;
import io.servesim.workload.TraceSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Readers on slices of the real traces in {@code src/test/resources/traces} (see the README there).
 * Expected counts, totals and first rows were computed from the slices with Python's csv/json
 * modules (timestamps: exact decimal arithmetic, rounded half up to microseconds).
 */
class TraceReaderTest {
    static final Path TRACES = Path.of("src/test/resources/traces");

    static List<Request> replay(TraceFormat format, Path path, double speedup) {
        RequestSource s = new TraceSpec(format, path, ReplayMode.TRACE, speedup, 0, false, 0).open(0, 0);
        List<Request> out = new ArrayList<>();
        for (Request r = s.next(); r != null; r = s.next()) {
            out.add(r);
        }
        s.close();
        return out;
    }

    private static void assertTotals(List<Request> rs, int count, long input, long output) {
        assertEquals(count, rs.size());
        assertEquals(input, rs.stream().mapToLong(Request::inputTokens).sum());
        assertEquals(output, rs.stream().mapToLong(Request::outputTokens).sum());
    }

    private static void assertRow(Request r, long arrivalUs, int input, int output) {
        assertEquals(arrivalUs, r.arrivalUs(), "arrival of " + r);
        assertEquals(input, r.inputTokens());
        assertEquals(output, r.outputTokens());
    }

    @Test
    void azureConversationSlice() {
        // Every 20th row of AzureLLMInferenceTrace_conv.csv: 969 rows. Row 2 is 18:15:59.7304330 -
        // 18:15:46.6805900 = 13.049843 s after row 1.
        List<Request> rs = replay(TraceFormat.AZURE, TRACES.resolve("azure_conv_every20.csv"), 1);
        assertTotals(rs, 969, 1_079_008, 211_267);
        assertRow(rs.get(0), 0, 374, 44);
        assertRow(rs.get(1), 13_049_843, 197, 152);
        assertRow(rs.get(2), 24_768_385, 437, 88);
        assertEquals(3_496_730_227L, rs.get(968).arrivalUs());
    }

    @Test
    void azureCodeSliceWithSpeedup() {
        List<Request> rs = replay(TraceFormat.AZURE, TRACES.resolve("azure_code_every20.csv"), 1);
        assertTotals(rs, 441, 921_879, 11_744);
        assertRow(rs.get(0), 0, 4808, 10);
        assertRow(rs.get(1), 30_503_459, 763, 8);
        assertRow(rs.get(2), 34_445_908, 1562, 18);
        assertEquals(3_432_649_155L, rs.get(440).arrivalUs());
        // arrival_speedup_ratio 2 halves every gap: 30,503,459 / 2 = 15,251,729.5, rounded half up.
        List<Request> fast = replay(TraceFormat.AZURE, TRACES.resolve("azure_code_every20.csv"), 2);
        assertEquals(15_251_730, fast.get(1).arrivalUs());
        assertEquals(1_716_324_578, fast.get(440).arrivalUs());
    }

    @Test
    void mooncakeSlicesMapHashIdsToBlocks() {
        List<Request> rs = replay(TraceFormat.MOONCAKE, TRACES.resolve("mooncake_conversation_head500.jsonl"), 1);
        assertTotals(rs, 500, 7_124_855, 180_942);
        assertRow(rs.get(0), 0, 6758, 500);
        assertRow(rs.get(1), 0, 7322, 490);
        assertEquals(165_000_000, rs.get(499).arrivalUs());
        // 14 hash ids: 13 full blocks and 6758 - 13 x 512 = 102 tokens.
        Request first = rs.get(0);
        assertEquals(14, first.input().segmentCount());
        assertEquals(512, first.input().segmentLength(0));
        assertEquals(102, first.input().segmentLength(13));
        // Both rows start with hash id 0 and differ from the second id on.
        assertEquals(first.input().segmentId(0), rs.get(1).input().segmentId(0));
        assertTrue(first.input().segmentId(1) != rs.get(1).input().segmentId(1));
        assertTotals(replay(TraceFormat.MOONCAKE, TRACES.resolve("mooncake_synthetic_head150.jsonl"), 1), 150, 2_037_770, 26_387);
    }

    @Test
    void vllmSliceUsesRealTokenIds() {
        // arrival_time_ns 46,926,808 then 347,938,820: (347,938,820 - 46,926,808) / 1000 = 301,012.012 us.
        List<Request> rs = replay(TraceFormat.VLLM, TRACES.resolve("vllm_sharegpt_head10.jsonl"), 1);
        assertTotals(rs, 10, 10_077, 6_614);
        assertRow(rs.get(0), 0, 2358, 531);
        assertRow(rs.get(1), 301_012, 1034, 769);
        assertTrue(rs.get(0).input().hasTokenIds());
        // The first three token ids are 5971, 2927, 220.
        long h = io.servesim.engine.TokenSequence.ofTokenIds(new int[] {5971, 2927, 220}).rangeHash(9, 0, 3);
        assertEquals(h, rs.get(0).input().rangeHash(9, 0, 3));
    }

    @Test
    void malformedLinesStopTheRunWithFileAndLine(@TempDir Path dir) throws Exception {
        Path csv = dir.resolve("t.csv");
        Files.writeString(csv, "arrival_us,input_tokens,output_tokens\n0,10,5\n5,x,5\n9,10\n12,10,5\n");
        TraceFormatException e = assertThrows(TraceFormatException.class, () -> replay(TraceFormat.CSV, csv, 1));
        assertEquals(csv + ":3: input_tokens is not an integer: 'x'", e.getMessage());

        RequestSource s = new TraceSpec(TraceFormat.CSV, csv, ReplayMode.TRACE, 1, 0, true, 0).open(0, 0);
        List<Long> arrivals = new ArrayList<>();
        for (Request r = s.next(); r != null; r = s.next()) {
            arrivals.add(r.arrivalUs());
        }
        assertEquals(List.of(0L, 12L), arrivals);
        assertEquals(2, s.skippedLines());

        Path moon = dir.resolve("m.jsonl");
        Files.writeString(moon, "{\"timestamp\": 5, \"input_length\": 1000, \"output_length\": 1, \"hash_ids\": [1, 2]}\n"
                + "{\"timestamp\": 4, \"input_length\": 1000, \"output_length\": 1, \"hash_ids\": [1, 2]}\n"
                + "{\"timestamp\": 6, \"input_length\": 1000, \"output_length\": 1, \"hash_ids\": [1]}\n{oops\n");
        e = assertThrows(TraceFormatException.class, () -> replay(TraceFormat.MOONCAKE, moon, 1));
        assertEquals(moon + ":2: timestamp 4000 us is before the previous line's 5000 us", e.getMessage());
        s = new TraceSpec(TraceFormat.MOONCAKE, moon, ReplayMode.TRACE, 1, 0, true, 0).open(0, 0);
        assertEquals(0, s.next().arrivalUs());
        assertEquals(null, s.next());
        assertEquals(3, s.skippedLines());

        Path azure = dir.resolve("a.csv");
        Files.writeString(azure, "TIMESTAMP,ContextTokens,GeneratedTokens\n2023-11-16 18:15:46,1,2\nyesterday,1,2\n");
        e = assertThrows(TraceFormatException.class, () -> replay(TraceFormat.AZURE, azure, 1));
        assertEquals(azure + ":3: TIMESTAMP is not 'yyyy-MM-dd HH:mm:ss[.fffffff]': 'yesterday'", e.getMessage());
        Files.writeString(azure, "when,in,out\n");
        e = assertThrows(TraceFormatException.class, () -> replay(TraceFormat.AZURE, azure, 1));
        assertEquals(azure + ":1: expected header 'TIMESTAMP,ContextTokens,GeneratedTokens', got 'when,in,out'", e.getMessage());
        // a byte-order mark before the header (as spreadsheet programs write CSV) is not part of it
        Files.writeString(csv, "\uFEFFarrival_us,input_tokens,output_tokens\n0,10,5\n");
        assertEquals(1, replay(TraceFormat.CSV, csv, 1).size());
    }

    @Test
    void mooncakeHashIdsMustCoverTheInput(@TempDir Path dir) throws Exception {
        Path moon = dir.resolve("m.jsonl");
        Files.writeString(moon, "{\"timestamp\": 0, \"input_length\": 1025, \"output_length\": 1, \"hash_ids\": [1, 2]}\n");
        TraceFormatException e = assertThrows(TraceFormatException.class, () -> replay(TraceFormat.MOONCAKE, moon, 1));
        assertEquals(moon + ":1: hash_ids has 2 ids but input_length 1025 needs 3 blocks of 512 tokens", e.getMessage());
    }

    @Test
    void mooncakeRowsShareOnlyTheHashIdsAnotherRowStartsWith(@TempDir Path dir) throws Exception {
        // rows [1,2,3], [1,2,4], [1,5], [6,7] and a malformed line: [1,2] starts two rows and [1] three,
        // so row 1 and row 2 share 2 x 512 tokens, row 3 shares 512 (its [1]), row 4 nothing (no other row
        // starts with 6); a shared block is capped at the input (row 5: 700 tokens, [1,2] shared -> 700)
        Path moon = dir.resolve("m.jsonl");
        Files.writeString(moon, """
                {"timestamp": 0, "input_length": 1536, "output_length": 1, "hash_ids": [1, 2, 3]}
                {"timestamp": 1, "input_length": 1500, "output_length": 1, "hash_ids": [1, 2, 4]}
                {"timestamp": 2, "input_length": 1024, "output_length": 1, "hash_ids": [1, 5]}
                {"timestamp": 3, "input_length": 1024, "output_length": 1, "hash_ids": [6, 7]}
                {"timestamp": 4, "input_length": 700, "output_length": 1, "hash_ids": [1, 2]}
                {"timestamp": 5, "input_length": oops}
                """);
        RequestSource s = new TraceSpec(TraceFormat.MOONCAKE, moon, ReplayMode.TRACE, 1, 0, true, 0).open(0, 0);
        List<Integer> shared = new ArrayList<>();
        for (Request r = s.next(); r != null; r = s.next()) {
            shared.add(r.sharedInputTokens());
        }
        s.close();
        assertEquals(List.of(1024, 1024, 512, 0, 700), shared);
    }

    @Test
    void maxRequestsStopsEarly() {
        RequestSource s = new TraceSpec(TraceFormat.AZURE, TRACES.resolve("azure_conv_every20.csv"), ReplayMode.TRACE, 1, 0,
                false, 25).open(0, 0);
        int n = 0;
        while (s.next() != null) {
            n++;
        }
        assertEquals(25, n);
    }
}
