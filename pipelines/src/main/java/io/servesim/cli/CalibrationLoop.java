package io.servesim.cli;

/**
 * The yardstick of {@code scripts/bench-check}: a fixed, deterministic, single-threaded CPU-bound
 * loop whose work never changes, so its time measures the machine (clock, cache and memory
 * bandwidth, load from other processes) and nothing of servesim's. Benchmarks are compared as
 * ratios to it measured in the same run, which cancels most of a shared machine's noise (the regression
 * guard of BLIS macro plan, M "Benchmark Requirements": "Performance regression &gt;20% blocks merge":
 * inference-sim/inference-sim @ 7d4e8bac, {@code docs/plans/2026-02-11-macro-implementation-plan-v2.md}).
 *
 * <p>Its mix follows the kernel's: random reads and writes over a table larger than the L2 cache
 * (as prefix-index and KV-block lookups are), a data-dependent branch, and 64-bit mixing.
 */
final class CalibrationLoop {
    /** 8 MB of longs: beyond a core's L2, as the kernel's per-instance tables are. */
    private static final int TABLE = 1 << 20;
    private static final int ROUNDS = 64_000_000;

    private CalibrationLoop() {
    }

    /** The median seconds of a pass and the checksum of all passes (the same on every machine: the work did not change). */
    record Result(double medianSeconds, long checksum) {
    }

    /** Runs the loop {@code passes} times after one warm-up pass (JIT, first touch of the table). */
    static Result measure(int passes) {
        long[] table = new long[TABLE];
        long checksum = run(table);
        double[] s = new double[passes];
        for (int p = 0; p < passes; p++) {
            long t0 = System.nanoTime();
            checksum += run(table);
            s[p] = (System.nanoTime() - t0) / 1e9;
        }
        java.util.Arrays.sort(s);
        return new Result(s[passes / 2], checksum);
    }

    /** One pass: xorshift-driven random read-modify-writes of the table with a data-dependent branch. */
    static long run(long[] table) {
        long x = 0x9E3779B97F4A7C15L;
        long acc = 0;
        int mask = table.length - 1;
        for (int i = 0; i < ROUNDS; i++) {
            x ^= x << 13;
            x ^= x >>> 7;
            x ^= x << 17;
            int slot = (int) (x >>> 40) & mask;
            long v = table[slot];
            if ((v & 1) == 0) {
                table[slot] = v + (x | 1);
            } else {
                acc += v * 0xBF58476D1CE4E5B9L;
                table[slot] = v >>> 1;
            }
        }
        return acc;
    }
}
