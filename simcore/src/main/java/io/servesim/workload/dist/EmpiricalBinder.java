package io.servesim.workload.dist;

import com.fasterxml.jackson.databind.JsonNode;
import io.servesim.config.ConfigNode;
import io.servesim.config.ReadFailure;
import it.unimi.dsi.fastutil.doubles.DoubleArrayList;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.Map;

/**
 * Binds an {@code empirical} distribution's data: an inline PMF {@code pmf: {128: 0.3, 512: 0.7}}
 * or a CSV file {@code file: lengths.csv} with header {@code value,weight} (one value per line).
 * Like every other distribution type, values must lie in the range of what they measure (token
 * counts >= 1); weights are probabilities that must sum to 1 within {@value #WEIGHT_SUM_TOLERANCE},
 * never silently rescaled. File problems name the file and line.
 */
final class EmpiricalBinder {
    static final String HEADER = "value,weight";

    private EmpiricalBinder() {
    }

    /** Tolerance of the weights' sum around 1. */
    static final double WEIGHT_SUM_TOLERANCE = 1e-6;

    /** The sampler, or null with problems recorded; values must lie in the range of {@code params.kind()}. */
    static Sampler bind(DistributionParams params) {
        ConfigNode n = params.node();
        DistributionBinder.Kind kind = params.kind();
        Path baseDir = params.baseDir();
        JsonNode pmf = n.rawValue("pmf");
        String file = n.get(DistributionSettings.FILE);
        if ((pmf == null) == (file == null)) {
            n.problem(n.path(), "empirical needs exactly one of pmf (inline {value: weight}) or file (CSV value,weight)");
            return null;
        }
        DoubleArrayList values = new DoubleArrayList();
        DoubleArrayList weights = new DoubleArrayList();
        Path csv = file == null ? null : baseDir.resolve(file).normalize();
        Read read = pmf != null ? readPmf(n, pmf, kind, values, weights) : readFile(n, csv, kind, values, weights);
        if (read == Read.FAILED) {
            return null;
        }
        double sum = 0;
        for (int i = 0; i < weights.size(); i++) {
            sum += weights.getDouble(i);
        }
        if (!(Math.abs(sum - 1) <= WEIGHT_SUM_TOLERANCE)) {
            n.problem(n.pathOf(pmf != null ? "pmf" : "file"), (csv == null ? "" : csv + ": ") + "weights sum to "
                    + DistributionBinder.fmt(sum) + ", not 1 (within 1e-6); give probabilities");
            return null;
        }
        if (read == Read.OUT_OF_RANGE) {
            return null;
        }
        try {
            return EmpiricalSampler.of(values.toDoubleArray(), weights.toDoubleArray());
        } catch (IllegalArgumentException e) {
            n.problem(n.pathOf(pmf != null ? "pmf" : "file"), e.getMessage());
            return null;
        }
    }

    /** How reading the data went: values and weights all read (some values possibly out of range), or not. */
    private enum Read { OK, OUT_OF_RANGE, FAILED }

    /** Why {@code value} is outside {@code kind}'s range, or null when it is inside. */
    private static String outOfRange(double value, DistributionBinder.Kind kind) {
        if (value >= kind.floor && value <= kind.ceiling) {
            return null;
        }
        return "value must be in [" + DistributionBinder.fmt(kind.floor) + ", " + DistributionBinder.fmt(kind.ceiling) + "]"
                + (kind.why.isEmpty() ? "" : " (" + kind.why + ")") + ", got " + DistributionBinder.fmt(value);
    }

    private static Read readPmf(ConfigNode n, JsonNode pmf, DistributionBinder.Kind kind, DoubleArrayList values,
                                   DoubleArrayList weights) {
        if (!pmf.isObject() || pmf.isEmpty()) {
            n.problem(n.pathOf("pmf"), "must be a non-empty mapping {value: weight, ...}");
            return Read.FAILED;
        }
        Read read = Read.OK;
        for (Iterator<Map.Entry<String, JsonNode>> it = pmf.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            String at = n.pathOf("pmf") + "." + e.getKey();
            Double value = parse(e.getKey());
            if (value == null) {
                n.problem(at, "key must be a number (a value of the distribution)");
                read = Read.FAILED;
            } else if (!e.getValue().isNumber()) {
                n.problem(at, "weight must be a number, got " + e.getValue());
                read = Read.FAILED;
            } else {
                if (outOfRange(value, kind) != null) {
                    n.problem(at, outOfRange(value, kind));
                    read = read == Read.FAILED ? read : Read.OUT_OF_RANGE;
                }
                values.add(value);
                weights.add(e.getValue().asDouble());
            }
        }
        return read;
    }

    private static Read readFile(ConfigNode n, Path path, DistributionBinder.Kind kind, DoubleArrayList values,
                                    DoubleArrayList weights) {
        String at = n.pathOf("file");
        Read read = Read.OK;
        try (BufferedReader r = Files.newBufferedReader(path)) {
            String header = r.readLine();
            if (header == null || !header.strip().replace(" ", "").equalsIgnoreCase(HEADER)) {
                n.problem(at, path + ":1: " + (header == null ? "the file is empty; expected the header '" + HEADER + "' and"
                        + " a line per value" : "expected header '" + HEADER + "', got '" + header + "'"));
                return Read.FAILED;
            }
            String line;
            long lineNo = 1;
            while ((line = r.readLine()) != null) {
                lineNo++;
                if (line.isBlank()) {
                    continue;
                }
                String[] f = line.split(",", -1);
                Double v = f.length == 2 ? parse(f[0]) : null;
                Double w = f.length == 2 ? parse(f[1]) : null;
                if (v == null || w == null) {
                    n.problem(at, path + ":" + lineNo + ": expected two numbers 'value,weight', got '" + line + "'");
                    return Read.FAILED;
                }
                if (outOfRange(v, kind) != null) {
                    n.problem(at, path + ":" + lineNo + ": " + outOfRange(v, kind));
                    read = Read.OUT_OF_RANGE;
                }
                values.add(v);
                weights.add(w);
            }
        } catch (IOException e) {
            n.problem(at, ReadFailure.describe(e, path));
            return Read.FAILED;
        }
        if (values.isEmpty()) {
            n.problem(at, path + ": no data lines");
            return Read.FAILED;
        }
        return read;
    }

    private static Double parse(String s) {
        try {
            double d = Double.parseDouble(s.strip());
            return Double.isFinite(d) ? d : null;
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
