package io.servesim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.servesim.metrics.Column;
import io.servesim.metrics.Metric;
import io.servesim.metrics.MetricCatalog;
import io.servesim.testing.RepoFiles;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code docs/metrics-reference.md} is the metric catalog rendered (regenerate with {@code -Dservesim.docs.write=true}),
 * and {@code servesim metrics} lists every metric with its unit, columns, fitness rule and report panels.
 */
class MetricsReferenceTest {
    private static final Path DOC = RepoFiles.path("docs/metrics-reference.md");

    @Test
    void theReferenceIsTheCatalogRendered() throws Exception {
        String rendered = MetricsReference.markdown();
        if (Boolean.getBoolean("servesim.docs.write")) {
            Files.writeString(DOC, rendered);
        }
        assertEquals(rendered, Files.readString(DOC), "docs/metrics-reference.md is stale: regenerate it (see its header)");
    }

    /**
     * Every metric has a line: ttft_ms's names its four columns, its fitness rule (0.5 at 1000 ms) and the panels that
     * draw them (latency: p50 and p99; table: p50 and p99); cost_usd's is in USD, lower is better, on the autoscaling
     * panel; a JSON-only metric says so.
     */
    @Test
    void theListingHasEveryMetricAndWhereItAppears() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        assertEquals(0, new MetricsCommand().run(new PrintStream(out, true, StandardCharsets.UTF_8)));
        List<String> lines = out.toString(StandardCharsets.UTF_8).lines().toList();
        for (Metric m : MetricCatalog.ALL) {
            assertEquals(1, lines.stream().filter(l -> l.startsWith("  " + m.name() + "  [")).count(), m.name());
        }
        assertEquals("  ttft_ms  [ms, lower is better]  columns: ttft_mean_ms, ttft_p50_ms, ttft_p90_ms, ttft_p99_ms"
                + "  fitness: 1 / (1 + value / 1000 ms): 1 at 0, 0.5 at 1000 ms  report: latency, table", line(lines, "ttft_ms"));
        assertEquals("  cost_usd  [USD, lower is better]  columns: cost_usd  fitness: 1 / (1 + value / 1 USD): 1 at 0, 0.5"
                + " at 1 USD  report: autoscaling", line(lines, "cost_usd"));
        assertEquals("  latency_description  [text]  run JSON only", line(lines, "latency_description"));
    }

    /** Each report panel's columns are catalog columns; the catalog says which panels draw one. */
    @Test
    void panelsDrawCatalogColumns() {
        Column p99 = MetricCatalog.column("ttft_p99_ms");
        assertEquals(List.of("latency", "table"), io.servesim.report.Panels.showing(p99));
        assertTrue(io.servesim.report.Panels.showing(MetricCatalog.column("ttft_p90_ms")).isEmpty());
    }

    private static String line(List<String> lines, String metric) {
        return lines.stream().filter(l -> l.startsWith("  " + metric + "  [")).findFirst().orElseThrow();
    }
}
