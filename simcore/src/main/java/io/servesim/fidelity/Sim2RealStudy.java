package io.servesim.fidelity;

import io.servesim.metrics.RecordSink;
import io.servesim.metrics.RequestRecord;
import io.servesim.run.RunPlan;
import io.servesim.run.SimConfigLoader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The sim-to-real study's table (inference-sim/sim-to-real-accuracy-validation @ dcec3fd, trainval set): every
 * experiment's shipped run config ({@code configs/<experiment>.yaml}: model, GPU, TP, vLLM's engine arguments, the
 * workload as an inference-perf config of {@code workloads/}) simulated as {@code servesim run} would, its whole-run
 * means computed as the study computes the real ones ({@code experiment/ground_truth.py}: means over completed
 * requests; ITL = (E2E mean - TTFT mean) / (mean output tokens - 1)), beside the real means and the peers'
 * predictions of {@code means.csv} ({@link StudyMeans}).
 *
 * @param means the real and peers' means
 * @param rows  one row per experiment simulated, in the study's order (numeric id, then name)
 */
public record Sim2RealStudy(StudyMeans means, List<Row> rows) {
    /**
     * One experiment as servesim simulated it.
     *
     * @param experiment the study's experiment name
     * @param completed  requests completed
     * @param injected   requests sent
     * @param e2eMs      mean E2E latency of the completed requests, ms
     * @param ttftMs     mean TTFT of the same, ms
     * @param itlMs      (e2eMs - ttftMs) / (mean output tokens - 1), ms
     */
    public record Row(String experiment, long completed, long injected, double e2eMs, double ttftMs, double itlMs) {
        /** The mean of {@code metric} (one of {@link StudyMeans#METRICS}), ms. */
        public double mean(String metric) {
            return switch (metric) {
                case "e2e_mean" -> e2eMs;
                case "ttft_mean" -> ttftMs;
                case "itl_mean" -> itlMs;
                default -> throw new IllegalArgumentException("metric '" + metric + "': expected one of " + StudyMeans.METRICS);
            };
        }
    }

    /**
     * Simulates the experiments of {@code dir} ({@code configs/}, {@code workloads/}, {@code means.csv}) whose names
     * are in {@code only}, or all of them when {@code only} is empty; every config needs its means and every name of
     * {@code only} a config.
     */
    public static Sim2RealStudy run(Path dir, List<String> only) {
        return run(dir, only, List.of());
    }

    /** {@link #run(Path, List)} with {@code overrides} ({@code key=value}, as {@code servesim run --set}) on every config. */
    public static Sim2RealStudy run(Path dir, List<String> only, List<String> overrides) {
        StudyMeans means = StudyMeans.read(dir.resolve("means.csv"));
        List<Path> configs = configs(dir.resolve("configs"));
        List<String> names = configs.stream().map(Sim2RealStudy::name).toList();
        for (String n : names) {
            if (!means.actual().containsKey(n)) {
                throw new IllegalArgumentException(dir.resolve("configs").resolve(n + ".yaml") + ": no real means of '"
                        + n + "' in " + dir.resolve("means.csv"));
            }
        }
        if (!only.isEmpty()) {
            for (String n : only) {
                if (!names.contains(n)) {
                    throw new IllegalArgumentException("experiment '" + n + "': no " + n + ".yaml in "
                            + dir.resolve("configs") + "; the experiments are " + names);
                }
            }
        }
        List<Row> rows = new ArrayList<>();
        for (Path config : configs) {
            if (only.isEmpty() || only.contains(name(config))) {
                rows.add(simulate(config, overrides));
            }
        }
        return new Sim2RealStudy(means, rows);
    }

    private static List<Path> configs(Path dir) {
        try (Stream<Path> s = Files.list(dir)) {
            List<Path> list = s.filter(p -> p.getFileName().toString().endsWith(".yaml"))
                    .sorted(Comparator.comparing(Sim2RealStudy::order).thenComparing(Sim2RealStudy::name)).toList();
            if (list.isEmpty()) {
                throw new IllegalArgumentException(dir + ": no experiment configs (*.yaml)");
            }
            return list;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + dir, e);
        }
    }

    private static String name(Path config) {
        String f = config.getFileName().toString();
        return f.substring(0, f.length() - ".yaml".length());
    }

    /** The study's order: a short numeric id first (17, 20, ...), then runs named by a timestamp. */
    private static long order(Path config) {
        String head = name(config).split("-", 2)[0];
        return head.matches("\\d{1,5}") ? Long.parseLong(head) : Long.MAX_VALUE;
    }

    private static Row simulate(Path config, List<String> overrides) {
        MeanSink sink = new MeanSink();
        RunPlan.prepare(SimConfigLoader.load(config, overrides)).run(sink);
        long n = sink.completed;
        double e2e = n == 0 ? Double.NaN : sink.e2eUs / 1000.0 / n;
        double ttft = n == 0 ? Double.NaN : sink.ttftUs / 1000.0 / n;
        double out = n == 0 ? Double.NaN : (double) sink.outputTokens / n;
        return new Row(name(config), n, sink.injected, e2e, ttft, (e2e - ttft) / Math.max(out - 1, 1));
    }

    /** Sums of the completed requests' latencies and output tokens. */
    private static final class MeanSink implements RecordSink {
        long injected;
        long completed;
        double e2eUs;
        double ttftUs;
        long outputTokens;

        @Override
        public void accept(RequestRecord r) {
            injected++;
            if (RequestRecord.COMPLETED.equals(r.status())) {
                completed++;
                e2eUs += r.e2eUs();
                ttftUs += r.ttftUs();
                outputTokens += r.outputTokens();
            }
        }
    }

    /** Signed error of {@code predicted} against {@code actual}, percent. */
    static double errorPercent(double predicted, double actual) {
        return 100.0 * (predicted - actual) / actual;
    }

    /** servesim's signed error of {@code metric} on {@code row}, percent. */
    public double servesimError(Row row, String metric) {
        return errorPercent(row.mean(metric), means.actual().get(row.experiment()).get(metric));
    }

    /** {@code peer}'s signed error of {@code metric} on {@code experiment}, percent; NaN when it has no prediction. */
    public double peerError(String experiment, String peer, String metric) {
        Map<String, Double> p = means.predicted().get(experiment).get(peer);
        Double v = p == null ? null : p.get(metric);
        return v == null ? Double.NaN : errorPercent(v, means.actual().get(experiment).get(metric));
    }
}
