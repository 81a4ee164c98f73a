package io.servesim.report;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.servesim.metrics.Column;
import io.servesim.sweep.Dataset;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;

/**
 * Agentic sessions: CDFs of session end-to-end latency and of the critical path per policy value, from
 * {@code sessions/} (completed sessions; the same exact-quantile summary as {@link LatencyCdfPanel}). Shown
 * only when the sweep ran agentic clients (sessions has rows).
 */
final class SessionsPanel implements Panel {
    @Override
    public String id() {
        return "sessions";
    }

    @Override
    public List<Column> metrics() {
        return List.of();
    }

    @Override
    public Optional<ObjectNode> section(ReportContext ctx) throws SQLException {
        if (!ctx.has(Dataset.SESSIONS, "e2e_us", "critical_path_us", "status") || ctx.rows(Dataset.SESSIONS) == 0) {
            return Optional.empty();
        }
        SweepAxis policy = ctx.axes().policy();
        ObjectNode section = Charts.section(id(), "Agentic sessions",
                "Completed sessions of all cells, pooled over the other axes and seeds; " + LatencyCdfPanel.PROBABILITIES.length
                        + " exact quantiles per curve.");
        ArrayNode charts = (ArrayNode) section.get("charts");
        String where = "status = 'completed'";
        charts.add(LatencyCdfPanel.cdf(ctx, Dataset.SESSIONS, policy, "e2e_us", "Session E2E CDF", "session E2E (ms)", where));
        charts.add(LatencyCdfPanel.cdf(ctx, Dataset.SESSIONS, policy, "critical_path_us", "Critical path CDF",
                "critical path (ms)", where));
        return Optional.of(section);
    }
}
