package io.servesim.workload.dist;

import com.fasterxml.jackson.databind.JsonNode;
import io.servesim.config.ConfigNode;
import it.unimi.dsi.fastutil.doubles.DoubleArrayList;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.Map;

/**
 * Binds an {@code empirical} distribution's data: an inline PMF {@code pmf: {128: 0.3, 512: 0.7}}
 * or a CSV file {@code file: lengths.csv} with header {@code value,weight} (one value per line;
 * weights are relative). File problems name the file and line.
 */
final class EmpiricalBinder {
    static final String HEADER = "value,weight";

    private EmpiricalBinder() {
    }

    /** The sampler, or null with problems recorded. */
    static Sampler bind(ConfigNode n, Path baseDir) {
        JsonNode pmf = n.rawValue("pmf");
        String file = n.stringValue("file", null);
        if ((pmf == null) == (file == null)) {
            n.problem(n.path(), "empirical needs exactly one of pmf (inline {value: weight}) or file (CSV value,weight)");
            return null;
        }
        DoubleArrayList values = new DoubleArrayList();
        DoubleArrayList weights = new DoubleArrayList();
        boolean ok = pmf != null ? readPmf(n, pmf, values, weights) : readFile(n, baseDir.resolve(file).normalize(), values, weights);
        if (!ok) {
            return null;
        }
        try {
            return EmpiricalSampler.of(values.toDoubleArray(), weights.toDoubleArray());
        } catch (IllegalArgumentException e) {
            n.problem(n.pathOf(pmf != null ? "pmf" : "file"), e.getMessage());
            return null;
        }
    }

    private static boolean readPmf(ConfigNode n, JsonNode pmf, DoubleArrayList values, DoubleArrayList weights) {
        if (!pmf.isObject() || pmf.isEmpty()) {
            n.problem(n.pathOf("pmf"), "must be a non-empty mapping {value: weight, ...}");
            return false;
        }
        boolean ok = true;
        for (Iterator<Map.Entry<String, JsonNode>> it = pmf.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            String at = n.pathOf("pmf") + "." + e.getKey();
            Double value = parse(e.getKey());
            if (value == null) {
                n.problem(at, "key must be a number (a value of the distribution)");
                ok = false;
            } else if (!e.getValue().isNumber()) {
                n.problem(at, "weight must be a number, got " + e.getValue());
                ok = false;
            } else {
                values.add(value);
                weights.add(e.getValue().asDouble());
            }
        }
        return ok;
    }

    private static boolean readFile(ConfigNode n, Path path, DoubleArrayList values, DoubleArrayList weights) {
        String at = n.pathOf("file");
        try (BufferedReader r = Files.newBufferedReader(path)) {
            String header = r.readLine();
            if (header == null || !header.strip().replace(" ", "").equalsIgnoreCase(HEADER)) {
                n.problem(at, path + ":1: expected header '" + HEADER + "', got '" + header + "'");
                return false;
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
                    return false;
                }
                values.add(v);
                weights.add(w);
            }
        } catch (IOException e) {
            n.problem(at, "cannot read " + path + ": " + e.getMessage());
            return false;
        }
        if (values.isEmpty()) {
            n.problem(at, path + ": no data lines");
            return false;
        }
        return true;
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
