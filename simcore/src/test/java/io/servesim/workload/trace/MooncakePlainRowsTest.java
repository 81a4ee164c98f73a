package io.servesim.workload.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import io.servesim.config.StrictJson;
import io.servesim.engine.TokenSequence;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link MooncakeTraceReader} reads plain lines straight off the parser's tokens and leaves every
 * other line to its tree path, which reports what is wrong. Every row the plain path gives must be
 * the tree path's row for that line (all fields, every prompt segment and the shared length); every
 * line it declines goes through the tree path, so bad lines are reported as before. A reader keeps the sessions it has
 * read, so each path reads the lines with a reader of its own.
 */
class MooncakePlainRowsTest {
    private static final TraceReader.Options REPLAY = new TraceReader.Options(false, true);
    private static final TraceReader.Options NO_TIMESTAMPS = new TraceReader.Options(false, false);

    @Test
    void everyRowOfTheRealTraceSlicesIsReadPlainAsTheTreeReadsIt() throws IOException {
        for (String slice : List.of("mooncake_conversation_head500.jsonl", "mooncake_synthetic_head150.jsonl")) {
            Path trace = TraceReaderTest.TRACES.resolve(slice);
            MooncakeTraceReader reader = new MooncakeTraceReader(trace, REPLAY);
            MooncakeTraceReader treeReader = new MooncakeTraceReader(trace, REPLAY);
            long lineNo = 0;
            for (String line : Files.readAllLines(trace)) {
                lineNo++;
                String plain = describe(plain(reader, line, lineNo));
                assertEquals(describe(tree(treeReader, line, lineNo)), plain, slice + ":" + lineNo);
            }
            reader.close();
            treeReader.close();
        }
    }

    /** Lines the plain path accepts: the types and nulls a Mooncake-style trace may carry. */
    @Test
    void plainVariantsGiveTheTreeRow(@TempDir Path dir) throws IOException {
        List<String> lines = List.of(
                "{\"timestamp\": 12.625, \"input_length\": 1000, \"output_length\": 7, \"hash_ids\": [3, 4]}",
                "{\"hash_ids\": [3, 9], \"output_length\": 0, \"input_length\": 513, \"timestamp\": 40}",
                "{\"timestamp\": 1e3, \"input_length\": 5, \"output_length\": 1, \"hash_ids\": null}",
                "{\"timestamp\": 2, \"input_length\": 5, \"output_length\": 1}",
                "{\"timestamp\": 2, \"input_length\": 5, \"output_length\": 1, \"session_id\": \"s-1\", \"delay\": 0}",
                "{\"timestamp\": 3, \"input_length\": 512, \"output_length\": 2, \"hash_ids\": [3], \"session_id\": \"s-1\","
                        + " \"delay\": 1.5, \"extra\": {\"a\": [1, {\"b\": null}]}, \"more\": [[], \"x\"]}",
                "{\"timestamp\": 4, \"input_length\": 512, \"output_length\": 2, \"hash_ids\": [9007199254740993],"
                        + " \"session_id\": null, \"delay\": 250}",
                "{\"timestamp\": 5, \"input_length\": 512, \"output_length\": 2, \"hash_ids\": [-7], \"delay\": null} trailing",
                "{\"input_length\": 7, \"output_length\": 2, \"session_id\": \"s-1\"}",
                "{\"timestamp\": 9, \"input_length\": 7, \"output_length\": 2, \"session_id\": \"s-1\"}");
        Path trace = Files.write(dir.resolve("plain.jsonl"), lines);
        MooncakeTraceReader reader = new MooncakeTraceReader(trace, REPLAY);
        MooncakeTraceReader treeReader = new MooncakeTraceReader(trace, REPLAY);
        for (int i = 0; i < lines.size(); i++) {
            TraceRow plain = plain(reader, lines.get(i), i + 1);
            assertNotNull(plain, lines.get(i));
            assertEquals(describe(tree(treeReader, lines.get(i), i + 1)), describe(plain), lines.get(i));
        }
        String untimed = "{\"input_length\": 20, \"output_length\": 3}";
        MooncakeTraceReader concurrency = new MooncakeTraceReader(trace, NO_TIMESTAMPS);
        MooncakeTraceReader concurrencyTree = new MooncakeTraceReader(trace, NO_TIMESTAMPS);
        assertEquals(describe(tree(concurrencyTree, untimed, 9)), describe(plain(concurrency, untimed, 9)));
        reader.close();
        treeReader.close();
        concurrency.close();
        concurrencyTree.close();
    }

    /** Lines the plain path declines (the tree path then accepts some and reports the others). */
    @Test
    void otherLinesAreLeftToTheTreePath(@TempDir Path dir) throws IOException {
        Path trace = Files.writeString(dir.resolve("t.jsonl"), "");
        MooncakeTraceReader reader = new MooncakeTraceReader(trace, REPLAY);
        for (String line : List.of(
                "{\"timestamp\": 1, \"input_length\": 512.0, \"output_length\": 1, \"hash_ids\": [1]}",
                "{\"timestamp\": 1, \"input_length\": \"512\", \"output_length\": 1}",
                "{\"timestamp\": 1, \"input_length\": 512, \"output_length\": 1, \"hash_ids\": [1, 2]}",
                "{\"timestamp\": 1, \"input_length\": 512, \"output_length\": 1, \"hash_ids\": [\"1\"]}",
                "{\"timestamp\": 1, \"input_length\": 512, \"output_length\": 1, \"hash_ids\": [99999999999999999999]}",
                "{\"timestamp\": 1, \"input_length\": 512, \"output_length\": 1, \"hash_ids\": {}}",
                "{\"timestamp\": 1, \"input_length\": 0, \"output_length\": 1}",
                "{\"timestamp\": 1, \"input_length\": 3000000000, \"output_length\": 1}",
                "{\"timestamp\": 1, \"input_length\": 5, \"output_length\": -1}",
                "{\"timestamp\": 1, \"input_length\": 5, \"output_length\": null}",
                "{\"timestamp\": 1, \"input_length\": 5}",
                "{\"input_length\": 5, \"output_length\": 1}",
                "{\"timestamp\": -1, \"input_length\": 5, \"output_length\": 1}",
                "{\"timestamp\": \"0\", \"input_length\": 5, \"output_length\": 1}",
                "{\"timestamp\": 1, \"input_length\": 5, \"output_length\": 1, \"session_id\": 12}",
                "{\"timestamp\": 1, \"input_length\": 5, \"output_length\": 1, \"delay\": -2}")) {
            assertNull(plain(reader, line, 1), line);
        }
        reader.close();
    }

    /**
     * Lines both paths must report the same way: an input_length near Integer.MAX_VALUE needs
     * ceil(2,147,483,137 / 512) = 4,194,304 hash ids (the count once overflowed to a negative number),
     * and a string longer than Jackson's limit (20,000,000 chars) in a field the plain path skips.
     */
    @Test
    void edgeLinesAreReportedByTheTreePath(@TempDir Path dir) throws IOException {
        Path trace = Files.writeString(dir.resolve("t.jsonl"), "");
        MooncakeTraceReader reader = new MooncakeTraceReader(trace, REPLAY);
        String huge = "{\"timestamp\": 1, \"input_length\": 2147483137, \"output_length\": 1, \"hash_ids\": [1]}";
        assertEquals("hash_ids has 1 ids but input_length 2147483137 needs 4194304 blocks of 512 tokens",
                assertThrows(TraceReader.BadLine.class, () -> reader.parse(huge, 1)).getMessage());
        String longString = "{\"timestamp\": 1, \"input_length\": 5, \"output_length\": 1, \"note\": \""
                + "x".repeat(20_000_001) + "\"}";
        assertTrue(assertThrows(TraceReader.BadLine.class, () -> reader.parse(longString, 2)).getMessage()
                .startsWith("not valid JSON: String value length"));
        reader.close();
    }

    private static TraceRow plain(MooncakeTraceReader reader, String line, long lineNo) throws IOException {
        try (JsonParser p = StrictJson.json().createParser(line)) {
            assertEquals(JsonToken.START_OBJECT, p.nextToken());
            return reader.parsePlain(p, lineNo);
        }
    }

    private static TraceRow tree(MooncakeTraceReader reader, String line, long lineNo) throws IOException {
        JsonNode n = StrictJson.json().readTree(line);
        try {
            return reader.parse(n, lineNo);
        } catch (TraceReader.BadLine e) {
            throw new AssertionError("the tree path refuses " + line + ": " + e.getMessage(), e);
        }
    }

    /** Every value of a row, prompt segments included. */
    private static String describe(TraceRow r) {
        assertNotNull(r);
        TokenSequence p = r.prompt();
        StringBuilder s = new StringBuilder(r.lineNo() + " " + r.timestampUs() + " " + r.outputTokens() + " "
                + r.sessionId() + " " + r.turn() + " " + r.delayUs() + " len " + p.length() + " shared " + p.sharedTokens() + " [");
        for (int i = 0; i < p.segmentCount(); i++) {
            s.append(p.segmentId(i)).append(':').append(p.segmentLength(i)).append(' ');
        }
        return s.append(']').toString();
    }
}
