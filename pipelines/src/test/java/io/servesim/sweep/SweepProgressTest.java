package io.servesim.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The progress line counts cells, then says once that the datasets are being written. */
class SweepProgressTest {
    @Test
    void reportsOnceWhenAllCellsRan() throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream err = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        String out;
        try (SweepProgress progress = SweepProgress.start("test-key", 2, err, 5)) {
            SweepProgress.cellDone("test-key");
            assertEquals(1, progress.done());
            SweepProgress.cellDone("test-key");
            long deadline = System.nanoTime() + 10_000_000_000L;
            while (!bytes.toString(StandardCharsets.UTF_8).contains("writing the datasets") && System.nanoTime() < deadline) {
                Thread.sleep(5);
            }
            Thread.sleep(50); // ten more periods: the final line must not repeat
            out = bytes.toString(StandardCharsets.UTF_8);
            assertEquals(2, progress.done());
        }
        assertEquals(1, out.split("writing the datasets", -1).length - 1, out);
        assertTrue(out.contains("sweep: 2/2 cells in "), out);
        assertFalse(out.contains("2/2 cells, "), out);
    }
}
