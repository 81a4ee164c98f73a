package io.servesim.report;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.servesim.metrics.Column;
import java.util.List;
import java.util.Optional;

/** The sweep's sidecars as text: {@code _SWEEP.yaml} (without its per-cell list) and {@code _SUMMARY.json}. */
final class SweepFilesPanel implements Panel {
    @Override
    public String id() {
        return "files";
    }

    @Override
    public List<Column> metrics() {
        return List.of();
    }

    @Override
    public Optional<ObjectNode> section(ReportContext ctx) {
        SweepOutput sweep = ctx.sweep();
        ObjectNode section = Charts.section(id(), "Sweep files", "What produced these results, from " + sweep.dir() + ".");
        ArrayNode files = section.putArray("files");
        files.addObject().put("name", "_SWEEP.yaml").put("text", sweep.sweepYaml());
        if (!sweep.summaryJson().isEmpty()) {
            files.addObject().put("name", "_SUMMARY.json").put("text", sweep.summaryJson());
        }
        return Optional.of(section);
    }
}
