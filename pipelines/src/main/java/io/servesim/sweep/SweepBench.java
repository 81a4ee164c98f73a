package io.servesim.sweep;

import io.servesim.config.ConfigException;
import io.servesim.exit.ExitCode;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The baseline a sweep runner is measured against: the sweep's cells run through
 * {@link CellRunner} (the same kernel work {@link RunCellFn} does, keeping the same records) with
 * no Beam and no Parquet, one after another on each of {@code threads} threads that take the next
 * cell from a shared counter. One warm-up cell first (JIT), then the timed loop. With one thread it
 * is the serial loop {@code scripts/bench-sweep} compares the runners with; with more, the most a
 * parallel runner could reach on this machine (the kernel's own scaling: shared caches, JIT and GC
 * threads competing for the same cores). {@code cpu_ms_cell} is the kernel threads' CPU time per
 * cell: it grows with threads when they slow each other down rather than wait. With {@code passes}
 * above 1 the timed loop runs again over the same cells in the same JVM, one line per pass: the
 * first pass is what a fresh process (and so a sweep runner) gets, with the JIT compiler still at
 * work on the second core; later ones show the kernel's warm speed and how far threads scale once
 * compilation is done.
 */
public final class SweepBench {
    private SweepBench() {
    }

    /** Runs every cell of {@code sweepFile} {@code passes} times on {@code threads} threads and prints cells/s per pass; returns the exit code. */
    public static int run(Path sweepFile, int threads, int passes, PrintStream out, PrintStream err) {
        SweepPlan plan;
        try {
            plan = SweepPlan.prepare(SweepFile.load(sweepFile));
        } catch (ConfigException | SweepPlan.InvalidCellsException e) {
            String m = e.getMessage();
            // A file that cannot be read is already named in the message (as an absolute path).
            boolean named = m.contains(sweepFile.toAbsolutePath().normalize().toString()) || m.contains(sweepFile.toString());
            err.println("servesim bench: " + (named ? m : sweepFile + ": " + m));
            return ExitCode.CONFIG_ERROR;
        }
        SweepOutputs outputs = plan.spec().outputs();
        List<Cell> cells = plan.cells();
        CellRunner.run(cells.get(0), outputs);
        out.printf("bench sweep %s: %s over the kernel (no Beam, no Parquet), %d thread%s%n", plan.spec().name(),
                threads == 1 ? "serial loop" : "parallel loops", threads, threads == 1 ? "" : "s");
        out.printf("%4s %8s %10s %10s %10s %12s%n", "pass", "cells", "requests", "wall_s", "cells_per_s", "cpu_ms_cell");
        for (int pass = 1; pass <= passes; pass++) {
            Pass p = timePass(cells, outputs, threads);
            if (p == null) {
                return ExitCode.RUNTIME_ERROR;
            }
            out.printf("%4d %8d %10d %10.2f %10.2f %12.1f%n", pass, cells.size(), p.requests, p.wallS,
                    cells.size() / p.wallS, p.cpuNs / 1e6 / cells.size());
        }
        return 0;
    }

    private record Pass(long requests, double wallS, long cpuNs) {
    }

    /** One timed loop over every cell; null if interrupted. */
    private static Pass timePass(List<Cell> cells, SweepOutputs outputs, int threads) {
        AtomicInteger next = new AtomicInteger();
        AtomicLong requests = new AtomicLong();
        AtomicLong cpuNs = new AtomicLong();
        ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
        Runnable worker = () -> {
            long cpu0 = cpu.getCurrentThreadCpuTime();
            for (int i = next.getAndIncrement(); i < cells.size(); i = next.getAndIncrement()) {
                requests.addAndGet(CellRunner.run(cells.get(i), outputs).summary().count("injected"));
            }
            cpuNs.addAndGet(cpu.getCurrentThreadCpuTime() - cpu0);
        };
        long t0 = System.nanoTime();
        List<Thread> pool = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            Thread thread = new Thread(worker, "bench-" + t);
            thread.start();
            pool.add(thread);
        }
        for (Thread t : pool) {
            try {
                t.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return null;
            }
        }
        return new Pass(requests.get(), (System.nanoTime() - t0) / 1e9, cpuNs.get());
    }
}
