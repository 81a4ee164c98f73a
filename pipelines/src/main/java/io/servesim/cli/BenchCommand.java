package io.servesim.cli;

import io.servesim.config.ValueType;
import io.servesim.exit.ErrorReport;
import io.servesim.exit.ExitCode;
import io.servesim.metrics.RecordSink;
import io.servesim.metrics.RunSummary;
import io.servesim.policy.code.CodePolicies;
import io.servesim.run.PolicyKind;
import io.servesim.run.RunPlan;
import io.servesim.run.SimConfigLoader;
import io.servesim.sweep.SweepBench;
import io.servesim.workload.WorkloadSettings;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code servesim bench}: kernel speed on one instance with prompts and outputs of 512 +- 256
 * tokens (gaussian, clamped to [1, 2048]) under the trained blackbox model of Llama-3.1-8B on one
 * H100, at a rate near saturation. The saturation throughput is measured first by a probe run with
 * all requests arriving at once; the benchmark then offers {@code --load} x that rate. Reports
 * wall and CPU time of the kernel thread (JVM start excluded, after a warm-up run; CPU time is
 * robust to other load on the machine), events/s and peak heap
 * (heap pools' peak usage since the run started; run with {@code -Xmx512m} to check the bound).
 */
@Command(name = "bench", mixinStandardHelpOptions = true, description = "Measure kernel speed (events/s, wall time, peak heap).")
public final class BenchCommand implements Callable<Integer> {
    @Option(names = "--requests", split = ",", description = "request counts to run (default: 10000,100000)")
    List<Long> requests = List.of(10_000L, 100_000L);

    @Option(names = "--load", description = "offered load as a fraction of the measured saturation rate (default 0.95)")
    double load = 0.95;

    @Option(names = "--seed", description = "seed (default 1)")
    long seed = 1;

    @Option(names = "--instances", description = "engine instances (default 1)")
    int instances = 1;

    @Option(names = "--routing", completionCandidates = RoutingNames.class,
            description = "routing policy when instances > 1: ${COMPLETION-CANDIDATES} (default weighted-scoring)")
    String routing = "weighted-scoring";

    @Option(names = "--sweep", paramLabel = "FILE", description = "instead: run a sweep file's cells in a plain serial loop"
            + " over the kernel and report cells/s (the baseline of scripts/bench-sweep); excludes the other options")
    Path sweep;

    @Option(names = "--threads", description = "with --sweep: threads taking cells from one shared list (default 1);"
            + " shows how the kernel alone scales on this machine, the ceiling for a parallel runner")
    int threads = 1;

    @Option(names = "--passes", description = "with --sweep: run all cells this many times in the same JVM, one line"
            + " per pass (default 1); later passes show the warm-JIT speed and scaling, the first what a fresh process gets")
    int passes = 1;

    @Option(names = "--calibrate", description = "instead: time the fixed CPU-bound calibration loop (CalibrationLoop) and"
            + " print its seconds; scripts/bench-check divides every benchmark by it so machine speed and load cancel;"
            + " excludes the other options")
    boolean calibrate;

    @Spec
    CommandSpec spec;

    /** The routing templates (the registry's policies but code, which needs a source), for {@code --routing}'s help. */
    static final class RoutingNames implements Iterable<String> {
        @Override
        public Iterator<String> iterator() {
            return templates().iterator();
        }
    }

    private static List<String> templates() {
        return PolicyKind.ROUTING.registry().names().stream().filter(n -> !n.equals(CodePolicies.NAME)).toList();
    }

    /** True (and says so on stderr) when {@code value} of {@code flag} is below 1. */
    private static boolean belowOne(String flag, int value) {
        if (value < 1) {
            System.err.println("servesim bench: " + flag + " must be >= 1, got " + value);
            return true;
        }
        return false;
    }

    @Override
    public Integer call() {
        if (calibrate) {
            for (String other : List.of("--requests", "--load", "--seed", "--instances", "--routing", "--sweep", "--threads",
                    "--passes")) {
                if (spec.commandLine().getParseResult().hasMatchedOption(other)) {
                    System.err.println("servesim bench: " + other + " does not apply with --calibrate");
                    return ExitCode.CONFIG_ERROR;
                }
            }
            CalibrationLoop.Result r = CalibrationLoop.measure(3);
            System.out.printf(Locale.ROOT, "calibration_s %.4f checksum %016x%n", r.medianSeconds(), r.checksum());
            return 0;
        }
        if (sweep != null) {
            for (String other : List.of("--requests", "--load", "--seed", "--instances", "--routing")) {
                if (spec.commandLine().getParseResult().hasMatchedOption(other)) {
                    System.err.println("servesim bench: " + other + " does not apply with --sweep (the sweep file sets everything)");
                    return ExitCode.CONFIG_ERROR;
                }
            }
            boolean badThreads = belowOne("--threads", threads);
            if (badThreads | belowOne("--passes", passes)) { // both checked: one call lists every problem
                return ExitCode.CONFIG_ERROR;
            }
            return SweepBench.run(sweep, threads, passes, System.out, System.err);
        }
        for (String sweepOnly : List.of("--threads", "--passes")) {
            if (spec.commandLine().getParseResult().hasMatchedOption(sweepOnly)) {
                System.err.println("servesim bench: " + sweepOnly + " only applies with --sweep");
                return ExitCode.CONFIG_ERROR;
            }
        }
        return run(requests, load, seed, instances, routing, System.out, Main.errors(spec));
    }

    static int run(List<Long> sizes, double load, long seed, int instances, String routing, PrintStream out,
                   ErrorReport errors) {
        List<String> bad = new ArrayList<>();
        if (!(load > 0)) {
            bad.add("--load must be > 0, got " + BigDecimal.valueOf(load).stripTrailingZeros().toPlainString());
        }
        sizes.stream().filter(n -> n <= 0).forEach(n -> bad.add("--requests must be >= 1, got " + n));
        if (sizes.isEmpty()) {
            bad.add("--requests must list at least one request count");
        }
        if (instances < 1) {
            bad.add("--instances must be >= 1, got " + instances);
        }
        List<String> routers = templates();
        if (!routers.contains(routing)) {
            bad.add("--routing: unknown routing policy '" + routing + "'; valid: " + String.join(", ", routers));
        }
        if (!bad.isEmpty()) { // every problem on its own line, all in one call
            bad.forEach(m -> System.err.println("servesim bench: " + m));
            return ExitCode.CONFIG_ERROR;
        }
        try {
            double saturationRps = plan(5_000L * instances, SATURATING_RPS, seed, instances,
                    routing).run(RecordSink.NONE).number("throughput_rps");
            double rate = load * saturationRps;
            out.printf("bench: llama-3.1-8b-instruct / H100 / TP1 blackbox x %d instances (%s), in/out 512+-256,"
                    + " saturation %.1f req/s, offered %.1f req/s%n", instances, routing, saturationRps, rate);
            plan(10_000, rate, seed + 1, instances, routing).run(RecordSink.NONE); // warm-up (JIT)
            out.printf("%10s %10s %10s %16s %14s %14s %12s %10s%n", "requests", "wall_s", "cpu_s", "events_processed",
                    "events_per_s", "peak_heap_mb", "duration_s", "ttft_p99_ms");
            var threads = ManagementFactory.getThreadMXBean();
            for (long n : sizes) {
                RunPlan p = plan(n, rate, seed, instances, routing);
                System.gc();
                resetPeaks();
                long t0 = System.nanoTime();
                long cpu0 = threads.getCurrentThreadCpuTime();
                RunSummary s = p.run(RecordSink.NONE);
                double cpu = (threads.getCurrentThreadCpuTime() - cpu0) / 1e9;
                double wall = (System.nanoTime() - t0) / 1e9;
                out.printf("%10d %10.3f %10.3f %16d %14.0f %14.1f %12.1f %10.1f%n", n, wall, cpu,
                        s.count("events_processed"),
                        s.count("events_processed") / wall, peakHeapBytes() / 1048576.0, s.number("duration_s"),
                                s.distribution("ttft_ms").p99());
            }
            return 0;
        } catch (RuntimeException e) {
            return errors.report(e);
        }
    }

    /**
     * The saturation run's offered rate: the highest workload.aggregate_rate accepts, so its 5,000 requests per instance
     * all arrive within 5 ms per instance, far inside their service time.
     */
    private static final double SATURATING_RPS = ((ValueType.Real) WorkloadSettings.AGGREGATE_RATE.type()).max();

    private static RunPlan plan(long n, double rate, long seed, int instances, String routing) {
        List<String> o = new ArrayList<>(List.of(
                "seed=" + seed,
                "policies.routing=" + routing,
                "deployment={model: meta-llama/llama-3.1-8b-instruct, hardware: H100, tp: 1, latency_model: blackbox, instances: "
                        + instances + "}",
                "workload.num_requests=" + n,
                "workload.aggregate_rate=" + rate,
                "workload.input_distribution={type: gaussian, params: {mean: 512, std_dev: 256, min: 1, max: 2048}}",
                "workload.output_distribution={type: gaussian, params: {mean: 512, std_dev: 256, min: 1, max: 2048}}"));
        return RunPlan.prepare(SimConfigLoader.load(null, o));
    }

    private static void resetPeaks() {
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP) {
                pool.resetPeakUsage();
            }
        }
    }

    private static long peakHeapBytes() {
        long sum = 0;
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP) {
                sum += pool.getPeakUsage().getUsed();
            }
        }
        return sum;
    }
}
