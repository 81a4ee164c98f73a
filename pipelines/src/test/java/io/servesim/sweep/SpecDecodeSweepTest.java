package io.servesim.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shipped {@code sweeps/examples/spec-decode-load.yaml} (at 120 requests a cell and its lowest and highest rates)
 * end to end, its {@code cells/} read back with DuckDB: the speculation columns, and the TPOT speed-up of EAGLE k = 3
 * shrinking from the lowest rate to the highest.
 */
class SpecDecodeSweepTest {
    private static final Path EXAMPLE = Path.of("..", "sweeps", "examples", "spec-decode-load.yaml").toAbsolutePath();

    @Test
    void theExampleRunsAndItsGainFadesWithLoad(@TempDir Path tmp) throws Exception {
        String yaml = Files.readString(EXAMPLE).replace("num_requests: 400", "num_requests: 120")
                .replace("values: [0.5, 2, 8, 16, 32, 48]", "values: [0.5, 48]");
        Path sweep = TestSweeps.write(tmp, "spec", yaml);
        Path out = tmp.resolve("out");
        assertEquals(0, TestSweeps.quietly("sweep", sweep.toString(), "--output", out.toString()));
        String cells = TestSweeps.glob(out, "cells");
        assertEquals(2, TestSweeps.scalar("SELECT count(*) FROM " + cells + " WHERE speculative = 'off'"
                + " AND spec_draft_tokens = 0 AND spec_acceptance_rate IS NULL AND spec_mean_accepted_length IS NULL"));
        // alpha 0.7, k 3: accepted / drafted = (0.7 + 0.49 + 0.343) / 3 = 0.511; tokens per verify step
        // 1 + 0.7 + 0.49 + 0.343 = 2.533
        assertEquals(2, TestSweeps.scalar("SELECT count(*) FROM " + cells + " WHERE speculative = 'eagle-k3'"
                + " AND spec_draft_tokens > 0 AND abs(spec_acceptance_rate - 0.511) < 0.03"
                + " AND abs(spec_mean_accepted_length - 2.533) < 0.1"));
        long lowPermille = TestSweeps.scalar(speedUp(cells, "0.5"));
        long highPermille = TestSweeps.scalar(speedUp(cells, "48"));
        assertTrue(lowPermille > 1500 && lowPermille > highPermille + 300, lowPermille + " vs " + highPermille);
    }

    /** 1000 x TPOT without speculation / TPOT with it, at {@code rate}. */
    private static String speedUp(String cells, String rate) {
        return "SELECT round(1000 * max(CASE WHEN speculative = 'off' THEN tpot_mean_ms END)"
                + " / max(CASE WHEN speculative = 'eagle-k3' THEN tpot_mean_ms END))::BIGINT FROM " + cells
                + " WHERE rate = '" + rate + "'";
    }
}
