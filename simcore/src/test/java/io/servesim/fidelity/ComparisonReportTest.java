package io.servesim.fidelity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class ComparisonReportTest {
    private static ReplayRow row(double realTtft, double simTtft, double realTpot, double simTpot) {
        return new ReplayRow(0, "r", 10, 2, 0, Double.isNaN(simTtft) ? "dropped" : "completed", 0, 0,
                realTtft, simTtft, realTpot, simTpot, realTtft + 1, simTtft + 1, 0.5, 0.25);
    }

    @Test
    void statisticsCoverRequestsPresentOnBothSides() {
        // TTFT pairs (100, 110), (300, 270); the third request was not completed by the simulator and counts nowhere.
        // TPOT: the second request has one output token (NaN), so only (10, 12).
        ComparisonReport report = ComparisonReport.of(List.of(
                row(100, 110, 10, 12), row(300, 270, Double.NaN, Double.NaN), row(50, Double.NaN, 5, Double.NaN)));
        assertEquals(2, report.compared());
        assertEquals(1, report.missing());
        assertEquals(200, report.line("TTFT", "mean").realMs());
        assertEquals(190, report.line("TTFT", "mean").simMs());
        assertEquals(-5.0, report.line("TTFT", "mean").diffPercent(), 1e-12);
        assertEquals(298, report.line("TTFT", "p99").realMs(), 1e-9); // 100 + 0.99 x (300 - 100)
        assertEquals(20.0, report.line("TPOT", "p50").diffPercent(), 1e-12);
        // queueing is on both sides in all three rows: 0.25 vs 0.5 ms, a measured value under 1 ms gets no percentage
        assertEquals(0.5, report.line("queueing", "mean").realMs());
        assertTrue(Double.isNaN(report.line("queueing", "mean").diffPercent()));
    }

    @Test
    void rendersOneLinePerStatistic() {
        String table = ComparisonReport.of(List.of(row(100, 110, 10, 12))).render();
        List<String> lines = table.lines().toList();
        assertEquals("metric                real        sim    diff%", lines.get(0));
        assertEquals("TTFT mean            100.0      110.0   +10.0%", lines.get(1));
        assertEquals("", lines.get(6));
        assertEquals("TPOT mean             10.0       12.0   +20.0%", lines.get(7));
        assertEquals("queueing mean          0.5        0.3      n/a", lines.get(19));
        assertEquals("n/a: the measured value is under 1 ms, of which a percentage says nothing", lines.get(24));
        assertEquals(1 + 4 * 5 + 3 + 1, lines.size());
    }
}
