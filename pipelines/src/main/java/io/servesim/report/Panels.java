package io.servesim.report;

import io.servesim.metrics.Column;
import java.util.List;

/**
 * The report's panels, in page order. To add one: a class implementing {@link Panel} that returns no section
 * unless {@link ReportContext#has} finds its columns or dataset (so older sweeps still report), building its
 * charts with {@link Charts} (kinds {@code curves, heatmap, cdf, bars, scatter, timeline}; a new kind is one function in
 * {@code report.js}'s {@code KINDS} and one case in its {@code expectedMarks}), and one line here.
 */
public final class Panels {
    static final List<Panel> ALL = List.of(new LatencyCurvesPanel(), new SloHeatmapPanel(), new LatencyCdfPanel(),
            new InstanceLoadPanel(), MetricCurvesPanel.kvCache(), MetricCurvesPanel.kvTiers(), MetricCurvesPanel.autoscaling(),
            new ReplicaTimelinePanel(), new PdPanel(),
            new SessionsPanel(), new ComparePanel(), new ResultTablePanel(), new SweepFilesPanel());

    private Panels() {
    }

    /** The ids of the panels that draw {@code column} from {@code cells/}, in page order. */
    public static List<String> showing(Column column) {
        return ALL.stream().filter(p -> p.metrics().contains(column)).map(Panel::id).toList();
    }
}
