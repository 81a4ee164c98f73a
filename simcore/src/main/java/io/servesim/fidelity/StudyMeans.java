package io.servesim.fidelity;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The real and the peers' whole-run means of the sim-to-real study's experiments, read from its shipped
 * {@code means.csv} ({@code experiment,simulator,metric,predicted,actual}; metrics {@code e2e_mean},
 * {@code ttft_mean}, {@code itl_mean} in ms), as inference-sim/sim-to-real-accuracy-validation @ dcec3fd publishes
 * them in {@code results_trainval/error_records.csv} (stage -1 rows). The study's {@code itl_mean} is
 * (E2E mean - TTFT mean) / (mean output tokens - 1) ({@code experiment/ground_truth.py}).
 *
 * @param actual    experiment -> metric -> the real vLLM run's mean, ms
 * @param predicted experiment -> simulator -> metric -> its predicted mean, ms
 */
public record StudyMeans(Map<String, Map<String, Double>> actual, Map<String, Map<String, Map<String, Double>>> predicted) {
    /** The three means the study compares, in table order. */
    public static final List<String> METRICS = List.of("e2e_mean", "ttft_mean", "itl_mean");
    private static final String HEADER = "experiment,simulator,metric,predicted,actual";

    /** Reads {@code file}; a malformed line is refused with its file and line number. */
    public static StudyMeans read(Path file) {
        List<String> lines;
        try {
            lines = Files.readAllLines(file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
        if (lines.isEmpty() || !lines.get(0).strip().equals(HEADER)) {
            throw new IllegalArgumentException(file + ":1: the header must be '" + HEADER + "'");
        }
        Map<String, Map<String, Double>> actual = new LinkedHashMap<>();
        Map<String, Map<String, Map<String, Double>>> predicted = new LinkedHashMap<>();
        for (int i = 1; i < lines.size(); i++) {
            String line = lines.get(i).strip();
            if (line.isEmpty()) {
                continue;
            }
            String where = file + ":" + (i + 1) + ": ";
            String[] f = line.split(",", -1);
            if (f.length != 5) {
                throw new IllegalArgumentException(where + "expected 5 fields (" + HEADER + "), found " + f.length);
            }
            if (!METRICS.contains(f[2])) {
                throw new IllegalArgumentException(where + "metric '" + f[2] + "': expected one of " + METRICS);
            }
            double pred = number(where + "predicted", f[3]);
            double act = number(where + "actual", f[4]);
            Double before = actual.computeIfAbsent(f[0], k -> new LinkedHashMap<>()).put(f[2], act);
            if (before != null && before != act) {
                throw new IllegalArgumentException(where + "actual " + f[4] + " of " + f[0] + " " + f[2]
                        + " differs from an earlier line's " + before + " (one real run per experiment)");
            }
            predicted.computeIfAbsent(f[0], k -> new LinkedHashMap<>()).computeIfAbsent(f[1], k -> new LinkedHashMap<>())
                    .put(f[2], pred);
        }
        return new StudyMeans(actual, predicted);
    }

    private static double number(String what, String text) {
        try {
            double v = Double.parseDouble(text);
            if (!(v > 0) || Double.isInfinite(v)) {
                throw new NumberFormatException();
            }
            return v;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(what + " '" + text + "': expected a positive number of ms", e);
        }
    }
}
