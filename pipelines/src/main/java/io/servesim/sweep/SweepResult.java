package io.servesim.sweep;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * What a sweep wrote, for the command to print.
 *
 * @param name            the sweep's name
 * @param dir             its output directory
 * @param alreadyComplete {@code --resume} found this grid's complete results and ran nothing
 * @param written         the datasets written, in order
 * @param rows            rows per dataset
 * @param table           the result table (one row per axis combination, over seeds)
 * @param cells           cells in the grid
 * @param completed       cells completed (resumed ones included)
 * @param failed          cells that failed at run time ({@code errors/} rows)
 * @param resumed         cells whose rows were kept from an interrupted run
 * @param pipelineSeconds wall-clock time of the pipeline
 */
public record SweepResult(String name, Path dir, boolean alreadyComplete, List<Dataset> written, Map<Dataset, Long> rows,
                          String table, int cells, long completed, long failed, int resumed, double pipelineSeconds) {
    static SweepResult alreadyComplete(Path dir, int cells) {
        return new SweepResult("", dir, true, List.of(), Map.of(), "", cells, cells, 0, cells, 0);
    }

    /** Cells run by this invocation per second of pipeline time. */
    public double cellsPerSecond() {
        return (completed - resumed) / Math.max(pipelineSeconds, 1e-9);
    }

    /** Where {@code d} was written. */
    public Path path(Dataset d) {
        return dir.resolve(d.directory());
    }

    /** The resolved sweep file beside the datasets. */
    public Path sweepFile() {
        return dir.resolve(SweepSidecars.SWEEP);
    }

    /** The run summary beside the datasets. */
    public Path summaryFile() {
        return dir.resolve(SweepSidecars.SUMMARY);
    }
}
