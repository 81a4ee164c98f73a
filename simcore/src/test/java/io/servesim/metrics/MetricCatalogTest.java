package io.servesim.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.servesim.run.RunPlan;
import io.servesim.run.SimConfigLoader;
import io.servesim.testing.RepoFiles;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Contract of the metric catalog: the run summary JSON holds every metric under its name and nothing the catalog does
 * not declare, each column's value is the number there, names carry their units, and no former name is left.
 */
class MetricCatalogTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** A 4-instance run with fitness weights (so fitness is a number), and a P/D run (so the pd section has values). */
    private static List<RunSummary> runs() {
        RunSummary aggregated = RunPlan.prepare(SimConfigLoader.load(RepoFiles.path("sweeps/configs/llama8b-h100-4x.yaml"),
                List.of("workload.num_requests=300", "fitness_weights=slo_attainment:1,ttft_p99_ms:0.5"))).run(r -> { });
        RunSummary pd = RunPlan.prepare(SimConfigLoader.load(RepoFiles.path("sweeps/configs/llama8b-h100-pd.yaml"),
                List.of("workload.num_requests=100"))).run(r -> { });
        return List.of(aggregated, pd);
    }

    @Test
    void everyColumnIsTheSummaryValueUnderItsName() {
        for (RunSummary s : runs()) {
            JsonNode json = JSON.valueToTree(s.toMap());
            for (Metric m : MetricCatalog.ALL) {
                JsonNode at = section(json, m.group()).get(m.name());
                assertNotNull(at, m.name() + " is not in the JSON's " + m.group());
                if (m.kind() == Metric.Kind.DISTRIBUTION) {
                    assertEquals(List.of("count", "mean", "min", "p50", "p90", "p95", "p99", "max"), keys(at), m.name());
                }
            }
            for (Column c : MetricCatalog.COLUMNS) {
                JsonNode at = section(json, c.metric().group()).get(c.metric().name());
                if (c.stat() != null) {
                    at = at.get(c.stat().key());
                }
                Object row = c.rowValue(s);
                if (row == null) {
                    // a null cell is an undefined statistic: NaN in the summary map, rendered as null in its JSON
                    assertTrue(at.isNull() || Double.isNaN(at.asDouble()), c.name());
                } else if (row instanceof Number n) {
                    assertEquals(n.doubleValue(), at.asDouble(), 0.0, c.name());
                } else {
                    assertEquals(String.valueOf(row), at.asText(), c.name());
                }
            }
        }
    }

    /** Nothing in the JSON escapes the catalog: each key of the top level and its sections is a metric or a breakdown. */
    @Test
    void everyJsonKeyIsAMetricOrABreakdown() {
        for (RunSummary s : runs()) {
            JsonNode json = JSON.valueToTree(s.toMap());
            for (Metric.Group g : Metric.Group.values()) {
                Set<String> declared = new HashSet<>();
                MetricCatalog.ALL.stream().filter(m -> m.group() == g).forEach(m -> declared.add(m.name()));
                SummaryJson.BREAKDOWNS.stream().filter(b -> b.group() == g).forEach(b -> declared.add(b.key()));
                if (g == Metric.Group.RUN) {
                    for (Metric.Group section : Metric.Group.values()) {
                        declared.add(section.key());
                    }
                }
                for (String key : keys(section(json, g))) {
                    assertTrue(declared.contains(key), g + ": " + key + " is neither a metric nor a breakdown");
                }
            }
        }
    }

    /**
     * Names carry their units and units are the catalog's own: {@code input_tokens_per_s} is in tokens/s (the old
     * catalog said "s"), an {@code _ms} name is in ms, a {@code _usd} name in USD.
     */
    @Test
    void namesCarryTheirUnits() {
        Set<String> units = Set.of("", "ms", "s", "requests/s", "tokens/s", "requests/s per GPU", "USD", "fraction", "bytes",
                "blocks", "requests", "replicas", "replica-seconds", "GPUs", "preemptions", "preemptions/request",
                "allocations", "decisions", "request pairs", "steps", "events", "lines", "transfers", "scale actions",
                "requests/step", "ratio", "index", "score", "tokens", "tokens/step", "items");
        for (Column c : MetricCatalog.COLUMNS) {
            String n = c.name();
            assertTrue(units.contains(c.unit()), n + ": unit '" + c.unit() + "' is not one of " + units);
            String expected = n.endsWith("_ms") ? "ms" : n.endsWith("_per_gpu_rps") ? "requests/s per GPU"
                    : n.endsWith("_rps") ? "requests/s" : n.endsWith("tokens_per_s") ? "tokens/s"
                    : n.endsWith("_s") ? "s" : n.endsWith("_usd") ? "USD" : n.endsWith("_bytes") ? "bytes"
                    : n.startsWith("replica_seconds") ? "replica-seconds" : n.endsWith("_rate") ? "fraction" : null;
            if (expected != null) {
                assertEquals(expected, c.unit(), n);
            }
            List<String> unitsInName = List.of("ms", "s", "requests/s", "tokens/s", "USD", "bytes");
            if (unitsInName.contains(c.unit())) {
                assertNotNull(expected, n + " is in " + c.unit() + " but its name does not say so");
            }
        }
    }

    @Test
    void everyMetricIsDocumentedAndEveryFitnessKeyHasADirection() {
        for (Metric m : MetricCatalog.ALL) {
            assertFalse(m.doc().isBlank(), m.name());
            assertTrue(m.fitness() == null || m.direction() != Metric.Direction.NEITHER, m.name());
        }
        for (Column c : MetricCatalog.COLUMNS) {
            assertTrue(c.name().matches("[a-z][a-z0-9_]*"), c.name());
            assertFalse(c.doc().isBlank(), c.name());
        }
    }

    /** A former name is no name of the catalog's, and its new name is: a column, a fitness key, a JSON path. */
    @Test
    void formerNamesAreGoneAndTheirNewNamesExist() {
        for (Renamed r : Renamed.ALL) {
            switch (r.where()) {
                case RUN_JSON -> {
                    String[] parts = r.now().substring(1).split("/");
                    Metric m = MetricCatalog.metric(parts[parts.length - 1]);
                    assertEquals(parts.length == 1 ? "" : parts[0], m.group().key(), r.now());
                }
                case CELLS, EVALUATE -> {
                    List<String> columns = MetricCatalog.COLUMNS.stream().map(Column::name).toList();
                    assertTrue(columns.contains(r.now()), r.now());
                    assertFalse(columns.contains(r.old()), r.old());
                }
                case FITNESS -> {
                    assertTrue(FitnessWeights.KEYS.contains(r.now()), r.now());
                    assertFalse(FitnessWeights.KEYS.contains(r.old()), r.old());
                }
            }
        }
    }

    private static JsonNode section(JsonNode json, Metric.Group g) {
        return g == Metric.Group.RUN ? json : json.get(g.key());
    }

    private static List<String> keys(JsonNode n) {
        List<String> out = new ArrayList<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = n.fields(); it.hasNext(); ) {
            out.add(it.next().getKey());
        }
        return out;
    }
}
