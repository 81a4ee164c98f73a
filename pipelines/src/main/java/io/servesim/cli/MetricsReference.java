package io.servesim.cli;

import io.servesim.metrics.Column;
import io.servesim.metrics.Metric;
import io.servesim.metrics.MetricCatalog;
import io.servesim.metrics.Renamed;
import io.servesim.metrics.SummaryJson;
import io.servesim.report.Panels;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The metric catalog as text: {@code docs/metrics-reference.md} (a table per section of the run summary JSON: metric,
 * unit, which way is better, its {@code cells/} and {@code evaluate} columns, fitness rule, report panels, description
 * and source; then the breakdowns and the renamed names) and the listing of {@code servesim metrics}. Where a metric
 * appears is read from the outputs themselves: the catalog says which columns rows carry and which are fitness keys,
 * the report's panels say what they draw ({@link Panels#showing}).
 */
final class MetricsReference {
    private static final String SECTION_DOC = """
            A metric's key in the run summary JSON (`servesim run`) is its name, at the top level or in the section the
            heading names; its `cells/` column (sweeps) and its raw metric in `servesim evaluate` (native `raw_metrics`,
            GEPA `outputs`, OpenEvolve's flat dict as the mean over runs) have the same name. A distribution (in ms) is an
            object of statistics in the JSON (`count`, `mean`, `min`, `p50`, `p90`, `p95`, `p99`, `max`) and one column
            per statistic listed (`ttft_p99_ms` is `ttft_ms.p99`). A fitness key (`--fitness-weights key:weight,...`) is a
            column with a fitness rule, which scores it in [0, 1] with 1 best; the fitness is the weighted sum, an
            undefined metric counting 0. `report` lists the report panels (section ids) that draw the column.""";

    private MetricsReference() {
    }

    /** {@code docs/metrics-reference.md}. */
    static String markdown() {
        StringBuilder md = new StringBuilder("""
                # Metrics reference

                Every output quantity of a run, generated from servesim's metric catalog (`io.servesim.metrics.MetricCatalog`;
                `MetricsReferenceTest` fails when this file and the catalog differ: regenerate it with
                `mvn -o -pl pipelines -am test-compile surefire:test -Dtest=MetricsReferenceTest
                -Dsurefire.failIfNoSpecifiedTests=false -Dservesim.docs.write=true`). `scripts/servesim metrics` prints the
                same list. Settings are in [config-reference.md](config-reference.md).

                """).append(SECTION_DOC).append('\n');
        for (Metric.Group g : Metric.Group.values()) {
            md.append("\n## ").append(g == Metric.Group.RUN ? "Top level" : "`" + g.key() + "`").append("\n\n");
            md.append("| metric | unit | better | `cells/` and `evaluate` | fitness | report | description |\n");
            md.append("|---|---|---|---|---|---|---|\n");
            for (Metric m : MetricCatalog.ALL) {
                if (m.group() != g) {
                    continue;
                }
                List<Column> columns = m.columns();
                md.append("| `").append(m.name()).append("` | ").append(m.unit()).append(" | ").append(m.direction().text())
                        .append(" | ").append(columns.isEmpty() ? "(run JSON only)" : code(names(columns)))
                        .append(" | ").append(m.fitness() == null ? "" : cell(m.fitness().rule()))
                        .append(" | ").append(String.join(", ", panels(columns)))
                        .append(" | ").append(cell(description(m))).append(" |\n");
            }
        }
        md.append("\n## Breakdowns\n\nValues of the run summary JSON that are not one number per run; their entries use the"
                + " catalog's names for their slice of a metric.\n\n| key | in | description |\n|---|---|---|\n");
        for (SummaryJson.Breakdown b : SummaryJson.BREAKDOWNS) {
            md.append("| `").append(b.key()).append("` | ").append(b.group() == Metric.Group.RUN ? "top level" : "`" + b.group().key() + "`")
                    .append(" | ").append(cell(b.doc())).append(" |\n");
        }
        md.append("\n`servesim run` adds `kv_capacity_source` (where the KV capacity came from), `frontend` (what the serving"
                + " front end adds to the server-side latencies, or why it is off), `drop_reasons` (dropped and"
                + " rejected requests by reason, when any) and, with `--trace-level`, `trace_summary`.\n");
        md.append("\n## Renamed\n\nNames earlier releases used. A former fitness key still works in `fitness_weights`, with a note"
                + " naming the new one; `compare --metrics` refuses a former column name, naming the new one (the columns it"
                + " reads have the new names); a run summary JSON path is written from the top level.\n\n| was | now | in |\n"
                + "|---|---|---|\n");
        for (Renamed r : Renamed.ALL) {
            md.append("| `").append(r.old()).append("` | `").append(r.now()).append("` | ").append(r.where().text()).append(" |\n");
        }
        return md.toString();
    }

    /** The listing of {@code servesim metrics}: per section, a line per metric, then its description. */
    static String listing() {
        StringBuilder out = new StringBuilder();
        for (Metric.Group g : Metric.Group.values()) {
            out.append(g == Metric.Group.RUN ? "top level of the run summary JSON" : g.key()).append(":\n");
            for (Metric m : MetricCatalog.ALL) {
                if (m.group() != g) {
                    continue;
                }
                List<Column> columns = m.columns();
                out.append("  ").append(m.name()).append("  [").append(m.unit().isEmpty() ? m.kind().name().toLowerCase(
                        java.util.Locale.ROOT) : m.unit()).append(m.direction() == Metric.Direction.NEITHER ? "" : ", "
                        + m.direction().text() + " is better").append(']');
                out.append(columns.isEmpty() ? "  run JSON only" : "  columns: " + String.join(", ", names(columns)));
                if (m.fitness() != null) {
                    out.append("  fitness: ").append(m.fitness().rule());
                }
                Set<String> panels = panels(columns);
                if (!panels.isEmpty()) {
                    out.append("  report: ").append(String.join(", ", panels));
                }
                out.append('\n').append("      ").append(description(m)).append('\n');
            }
        }
        return out.toString();
    }

    /** The description, the statistics' own for a distribution, and the source. */
    private static String description(Metric m) {
        String d = m.kind() == Metric.Kind.DISTRIBUTION
                ? "Distribution of " + m.doc() + "; statistics null when " + m.emptyWhen() + "." : m.doc();
        return m.source() == null ? d : d + " Source: " + m.source() + ".";
    }

    private static List<String> names(List<Column> columns) {
        return columns.stream().map(Column::name).toList();
    }

    private static Set<String> panels(List<Column> columns) {
        Set<String> ids = new LinkedHashSet<>();
        columns.forEach(c -> ids.addAll(Panels.showing(c)));
        return ids;
    }

    private static String code(List<String> names) {
        return String.join(", ", names.stream().map(n -> "`" + n + "`").toList());
    }

    private static String cell(String text) {
        return text.replace("|", "\\|");
    }
}
