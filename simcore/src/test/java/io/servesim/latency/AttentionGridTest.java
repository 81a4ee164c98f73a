package io.servesim.latency;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.servesim.config.ConfigException;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class AttentionGridTest {
    private static AttentionGrid grid(String csv) throws IOException {
        return AttentionGrid.read(ProfileCsv.read(new ByteArrayInputStream(csv.getBytes(StandardCharsets.UTF_8)), "test.csv"));
    }

    // Slices: decode-only (0 prefill, 1 and 2 decodes), prefill-only (64 tokens), mixed 64 + 1 decode.
    // The mixed slice 64 + 2 decodes is missing.
    private static final String CSV = """
            prefill_chunk,kv_prefill,n_decode,kv_decode,time_us
            0,0,1,100,10
            0,0,1,200,9
            0,0,2,100,15
            64,0,0,0,20
            64,1000,0,0,60
            64,0,1,100,32
            """;

    @Test
    void exactSamplesAreReturned() throws IOException {
        AttentionGrid g = grid(CSV);
        assertEquals(10, g.timeUs(0, 0, 1, 100), 1e-12);
        assertEquals(20, g.timeUs(64, 0, 0, 0), 1e-12);
        assertEquals(32, g.timeUs(64, 0, 1, 100), 1e-12);
    }

    @Test
    void aMissingSliceIsFilledAdditively() throws IOException {
        // 64 prefill + 2 decodes = (64 + 1 decode) + (2 decodes alone - 1 decode alone) = 32 + 15 - 10
        assertEquals(37, grid(CSV).timeUs(64, 0, 2, 100), 1e-12);
    }

    @Test
    void blendsLinearlyFromTheZeroSlice() throws IOException {
        // Half-way from no work (0) to the 64-token prefill (20); at kv_prefill 500 the prefill slice is 40.
        assertEquals(10, grid(CSV).timeUs(32, 0, 0, 0), 1e-12);
        assertEquals(20, grid(CSV).timeUs(32, 500, 0, 0), 1e-12);
    }

    @Test
    void noisyDipsAreRaisedToTheRunningMaximum() throws IOException {
        // Measured 9 at kv_decode 200 after 10 at 100: read as 10.
        assertEquals(10, grid(CSV).timeUs(0, 0, 1, 200), 1e-12);
    }

    @Test
    void extrapolatesAboveTheLastSample() throws IOException {
        // kv_prefill: 20 at 0, 60 at 1000 -> slope 0.04 us/token; 2000 -> 100.
        assertEquals(100, grid(CSV).timeUs(64, 2000, 0, 0), 1e-9);
        // decodes: 10 at 1, 15 at 2 -> 4 decodes 25.
        assertEquals(25, grid(CSV).timeUs(0, 0, 4, 100), 1e-9);
    }

    @Test
    void badCellsNameFileAndLine() {
        ConfigException e = assertThrows(ConfigException.class, () -> grid("""
                prefill_chunk,kv_prefill,n_decode,kv_decode,time_us
                0,0,1,100,10
                0,0,x,100,10
                """));
        assertEquals("test.csv:3: n_decode is not a number: 'x'", e.getMessage());
        assertThrows(ConfigException.class, () -> grid("prefill_chunk,kv_prefill,n_decode,time_us\n0,0,1,1\n"));
        assertEquals("test.csv: attention table has no rows",
                assertThrows(ConfigException.class, () -> grid("prefill_chunk,kv_prefill,n_decode,kv_decode,time_us\n")).getMessage());
    }
}
