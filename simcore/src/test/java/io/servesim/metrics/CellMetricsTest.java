package io.servesim.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.servesim.run.RunPlan;
import io.servesim.run.SimConfigLoader;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Contract of the metric catalog: every metric's value is the number at its
 * {@link CellMetric#summaryPath()} in the run summary JSON (so a row and the summary never
 * disagree), column names are unique and carry their unit.
 */
class CellMetricsTest {
    @Test
    void everyMetricIsTheSummaryValueAtItsPath() {
        RunSummary s = RunPlan.prepare(SimConfigLoader.load(Path.of("..", "sweeps", "configs", "llama8b-h100-4x.yaml"),
                List.of("workload.num_requests=300", "fitness_weights=slo_attainment:1,p99_ttft:0.5"))).run(r -> { });
        JsonNode json = new ObjectMapper().valueToTree(s.toMap());
        for (CellMetric m : CellMetrics.ALL) {
            JsonNode at = json.at(m.summaryPath());
            assertFalse(at.isMissingNode(), m.column() + ": nothing at " + m.summaryPath());
            Object row = m.rowValue(s);
            if (row == null) {
                // a null cell is an undefined statistic: NaN in the summary map (rendered as null in its JSON)
                assertTrue(at.isNull() || Double.isNaN(at.asDouble()), m.column());
            } else if (row instanceof Number n) {
                assertEquals(n.doubleValue(), at.asDouble(), 0.0, m.column());
            } else {
                assertEquals(String.valueOf(row), at.asText(), m.column());
            }
        }
    }

    @Test
    void columnsAreUniqueAndNamedWithTheirUnit() {
        Set<String> seen = new HashSet<>();
        for (CellMetric m : CellMetrics.ALL) {
            assertTrue(seen.add(m.column()), "duplicate column " + m.column());
            String suffix = switch (m.unit()) {
                case "ms" -> "_ms";
                case "s" -> "_s";
                case "1/s" -> m.column().endsWith("_rps") ? "_rps" : "_per_s";
                default -> "";
            };
            assertTrue(m.column().endsWith(suffix), m.column() + " should end in " + suffix);
            assertFalse(m.description().isBlank(), m.column());
        }
    }
}
