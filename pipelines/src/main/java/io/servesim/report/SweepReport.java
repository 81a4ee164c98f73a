package io.servesim.report;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.servesim.exit.UsageException;
import io.servesim.io.OutputPath;
import io.servesim.sweep.RoundsJob;
import java.io.IOException;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.List;
import java.util.stream.Collectors;

/**
 * {@code servesim report OUT_DIR}: one self-contained HTML page of a finished sweep's results ({@link Panels}:
 * latency vs load, SLO heatmaps, CDFs, instance load, cache, sessions, sim vs real, the table, the sidecars).
 * Aggregates are computed with DuckDB over the Parquet datasets; the page holds summaries only. The output
 * path is checked before any work and may not lie inside a folder of the sweep's data ({@code cells/}, the other
 * datasets, {@code compare/}): the report never writes where it or a query would read it as data; nor inside the
 * output folder of a capacity plan or a policy search ({@link RoundsJob}), whose rounds are sweeps' outputs.
 */
public final class SweepReport {
    /** The page's file name when {@code --out} is not given: beside the datasets in {@code OUT_DIR}. */
    public static final String DEFAULT_FILE = "report.html";

    private SweepReport() {
    }

    /**
     * The flags of the command.
     *
     * @param load  {@code --load}: the load axis, or null to detect it
     * @param x     {@code --x}: the heatmaps' x axis, or null for the first axis
     * @param y     {@code --y}: their y axis, or null for the next one
     */
    public record Options(String load, String x, String y) {
        /** No flag given. */
        public static final Options DEFAULTS = new Options(null, null, null);
    }

    /** Writes the report of {@code outDir} to {@code file} (null: {@code outDir/report.html}); returns its path. */
    public static Path write(Path outDir, Options options, Path file) throws IOException, SQLException {
        SweepOutput.checkFolder(outDir); // before --out, whose default lies inside it
        Path target = (file != null ? file : outDir.resolve(DEFAULT_FILE)).toAbsolutePath().normalize();
        String flag = file != null ? "--out" : "the report";
        String name = outDir.toAbsolutePath().normalize().getFileName() + ".html";
        String advice = "write the report outside it" + (file != null ? "" : " (servesim report OUT_DIR --out FILE)");
        RoundsJob.refuseInside(flag, target, advice, job -> "--out " + job.resolveSibling(job.getFileName() + "-" + name));
        SweepOutput sweep = SweepOutput.open(outDir);
        refuseInsideData(sweep, OutputPath.real(target)); // the own sweep's folders by name, before ReportFile's rule
        ReportFile.check(flag, target);
        ReportAxes axes = ReportAxes.resolve(sweep, options.load(), options.x(), options.y());
        ObjectNode data = Charts.JSON.createObjectNode();
        data.put("meta", "sweep " + sweep.name() + ": " + sweep.cells() + " cells, axes " + String.join(", ", sweep.axisNames())
                + "; load axis: " + (axes.load() == null ? "none" : axes.load().name() + " (" + axes.loadReason() + ")"));
        ArrayNode sections = data.putArray("sections");
        try (Duck duck = new Duck()) {
            ReportContext ctx = new ReportContext(sweep, axes, duck);
            for (Panel p : Panels.ALL) {
                p.section(ctx).ifPresent(sections::add);
            }
        }
        ReportFile.write(target, HtmlPage.render("servesim sweep report: " + sweep.name(), data));
        return target;
    }

    /**
     * Refuses {@code target} inside one of the folders of {@code sweep} that hold data: its datasets ({@code cells/},
     * ...), which queries and the report read, and {@code compare/}, whose {@code compare.parquet} the report reads.
     */
    private static void refuseInsideData(SweepOutput sweep, Path target) {
        List<Path> folders = sweep.dataFolders();
        for (Path folder : folders) {
            if (target.startsWith(folder)) {
                throw new UsageException("--out " + target + ": inside the sweep's " + folder.getFileName() + "/ folder,"
                        + " which holds its data; write the report outside its data folders (" + folders.stream()
                        .map(f -> f.getFileName() + "/").collect(Collectors.joining(", ")) + "): beside them, as the default "
                        + sweep.dir().resolve(DEFAULT_FILE) + " is, or elsewhere");
            }
        }
    }
}
