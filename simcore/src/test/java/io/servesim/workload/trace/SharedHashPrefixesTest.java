package io.servesim.workload.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Shared leading hash ids of a Mooncake file, and the process's reuse of a file's scan: the same file
 * version is scanned once, a rewritten file again.
 */
class SharedHashPrefixesTest {
    private static final String ROWS = """
            {"timestamp": 0, "input_length": 1536, "output_length": 1, "hash_ids": [1, 2, 3]}
            {"timestamp": 1, "input_length": 1536, "output_length": 1, "hash_ids": [1, 2, 4]}
            {"timestamp": 2, "input_length": 512, "output_length": 1, "hash_ids": [5]}
            """;

    /**
     * Rows starting [1], [1, 2]: two each, so shared; [1, 2, 3], [1, 2, 4] and [5]: one each. A row
     * [1, 2, 3] shares its first 2 ids, [5] none, and an id list no row has (e.g. [2]) none.
     */
    @Test
    void countsTheLeadingIdsAnotherRowStartsWith(@TempDir Path dir) throws IOException {
        Path trace = Files.writeString(dir.resolve("t.jsonl"), ROWS);
        SharedHashPrefixes s = SharedHashPrefixes.of(trace);
        assertEquals(2, s.sharedBlocks(new long[] {1, 2, 3}));
        assertEquals(2, s.sharedBlocks(new long[] {1, 2, 4}));
        assertEquals(1, s.sharedBlocks(new long[] {1, 9}));
        assertEquals(0, s.sharedBlocks(new long[] {5}));
        assertEquals(0, s.sharedBlocks(new long[] {2}));
    }

    @Test
    void aFileVersionIsScannedOnceAndARewrittenFileAgain(@TempDir Path dir) throws IOException {
        Path trace = Files.writeString(dir.resolve("t.jsonl"), ROWS);
        SharedHashPrefixes first = SharedHashPrefixes.of(trace);
        assertSame(first, SharedHashPrefixes.of(dir.resolve(".").resolve("t.jsonl")), "the same file by another path");
        // a third row starting with 5: [5] is now shared (same size would not do: the time differs too)
        Files.writeString(trace, ROWS + "{\"timestamp\": 3, \"input_length\": 512, \"output_length\": 1, \"hash_ids\": [5]}\n");
        Files.setLastModifiedTime(trace, FileTime.fromMillis(Files.getLastModifiedTime(trace).toMillis() + 2000));
        SharedHashPrefixes second = SharedHashPrefixes.of(trace);
        assertNotSame(first, second);
        assertEquals(1, second.sharedBlocks(new long[] {5}));
        assertEquals(0, first.sharedBlocks(new long[] {5}), "an earlier scan is not changed");
    }
}
