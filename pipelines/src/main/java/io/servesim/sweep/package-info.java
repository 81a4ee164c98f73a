/**
 * Sweeps: many simulations as one Apache Beam pipeline ({@code servesim sweep FILE}).
 *
 * <p>A sweep file ({@link io.servesim.sweep.SweepFile}) names a base run config, axes (one config
 * path per axis, or named alternatives that set several), optional zip groups and seeds. The grid
 * ({@link io.servesim.sweep.Grid}) is the cartesian product of the axes, zip groups moving
 * together, times the seeds; each cell is a resolved config with a stable id (a hash of config and
 * seed). Every cell is bound and validated by the kernel's own loader before anything runs
 * ({@link io.servesim.sweep.SweepPlan}).
 *
 * <p>{@link io.servesim.sweep.SweepPipeline}: cells -> Reshuffle -> {@link io.servesim.sweep.RunCellFn}
 * (the unchanged single-threaded kernel, one run per cell) -> one Parquet dataset per
 * {@link io.servesim.sweep.Dataset} ({@code requests/}, {@code sessions/}, {@code cells/}, {@code decisions/},
 * {@code scaling/}, {@code errors/}), each row keyed by {@code cell_id}, the axis labels and the seed; plus
 * {@code _SWEEP.yaml} and {@code _SUMMARY.json} beside them. Rows hold only simulated results, so
 * they are identical across runs, runners and parallelism; wall-clock timings are in the summary.
 *
 * <p>Runners: the DirectRunner (default) and the embedded Flink mini cluster run in the launching
 * JVM, which shows progress (cells done, cells/s, ETA) on stderr. On a remote Flink cluster cells
 * run in the TaskManagers: the launcher shows no live progress (the Flink web UI does) and reports
 * the completed/failed counts from Beam's metrics when the job ends.
 */
package io.servesim.sweep;
