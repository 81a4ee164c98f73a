package io.servesim.sweep;

import io.servesim.cli.Main;
import io.servesim.config.ConfigException;
import java.io.PrintStream;
import java.nio.file.Path;

/**
 * The baseline a sweep runner is measured against: the sweep's cells run one after another on
 * this thread through {@link CellRunner} (the same kernel work {@link RunCellFn} does, keeping the
 * same records), with no Beam and no Parquet. One warm-up cell first (JIT), then the timed loop.
 * {@code scripts/bench-sweep} compares its cells/s with the DirectRunner and embedded Flink.
 */
public final class SweepBench {
    private SweepBench() {
    }

    /** Runs every cell of {@code sweepFile} serially and prints cells/s; returns the exit code. */
    public static int run(Path sweepFile, PrintStream out, PrintStream err) {
        SweepPlan plan;
        try {
            plan = SweepPlan.prepare(SweepFile.load(sweepFile));
        } catch (ConfigException | SweepPlan.InvalidCellsException e) {
            err.println("servesim bench: " + sweepFile + ": " + e.getMessage());
            return Main.CONFIG_ERROR;
        }
        SweepOutputs outputs = plan.spec().outputs();
        CellRunner.run(plan.cells().get(0), outputs);
        long requests = 0;
        long t0 = System.nanoTime();
        for (Cell cell : plan.cells()) {
            requests += CellRunner.run(cell, outputs).summary().injected();
        }
        double wallS = (System.nanoTime() - t0) / 1e9;
        out.printf("bench sweep %s: serial loop over the kernel (no Beam, no Parquet), 1 thread%n", plan.spec().name());
        out.printf("%8s %10s %10s %10s%n", "cells", "requests", "wall_s", "cells_per_s");
        out.printf("%8d %10d %10.2f %10.2f%n", plan.cells().size(), requests, wallS, plan.cells().size() / wallS);
        return 0;
    }
}
