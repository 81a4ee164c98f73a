package io.servesim.config;

import io.servesim.workload.LengthSpec;
import io.servesim.workload.SyntheticSpec;
import io.servesim.workload.TraceFormat;
import io.servesim.workload.TraceSpec;
import io.servesim.workload.WorkloadSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** Binds the {@code workload:} section: a synthetic generator, or {@code trace:} replay. */
final class WorkloadBinder {
    static final List<String> PROCESSES = List.of("poisson", "constant");

    private WorkloadBinder() {
    }

    static WorkloadSpec bind(ConfigNode w, Path baseDir, long horizonUs) {
        if (w.has("trace")) {
            ConfigNode t = w.child("trace");
            String format = t.choice("format", "csv", TraceFormat.names());
            String file = t.stringValue("path", null);
            long max = t.longValue("max_requests", 0, 0, Long.MAX_VALUE);
            t.finish();
            w.finish();
            if (file == null) {
                t.problem(t.pathOf("path"), "required: the trace file");
                return null;
            }
            Path p = baseDir.resolve(file).normalize();
            if (!Files.isReadable(p)) {
                t.problem(t.pathOf("path"), "cannot read trace file " + p);
            }
            return new TraceSpec(TraceFormat.of(format), p, max);
        }
        ConfigNode arrival = w.child("arrival");
        String process = arrival.choice("process", "poisson", PROCESSES);
        double rate = arrival.doubleValue("rate", 1.0, 1e-9, 1e9);
        arrival.finish();
        long n = w.longValue("num_requests", horizonUs > 0 ? 0 : 1000, 0, Long.MAX_VALUE);
        if (n == 0 && horizonUs == 0) {
            w.problem(w.pathOf("num_requests"), "must be > 0 when horizon_us is 0 (the workload would never end)");
        }
        LengthSpec input = length(w.child("input"), LengthSpec.gaussian(512, 256, 1, 4096));
        LengthSpec output = length(w.child("output"), LengthSpec.gaussian(256, 128, 1, 2048));
        ConfigNode prefix = w.child("prefix");
        int prefixTokens = prefix.intValue("tokens", 0, 0, Integer.MAX_VALUE);
        String group = prefix.stringValue("group", "shared");
        prefix.finish();
        w.finish();
        return new SyntheticSpec("poisson".equals(process), rate, n, input, output, prefixTokens, group);
    }

    private static LengthSpec length(ConfigNode n, LengthSpec dflt) {
        if (!n.present()) {
            return dflt;
        }
        String type = n.choice("type", null, LengthSpec.TYPES);
        if (type == null) {
            n.problem(n.pathOf("type"), "required; valid: " + String.join(", ", LengthSpec.TYPES));
            return dflt;
        }
        LengthSpec out;
        switch (type) {
            case "constant" -> {
                int v = n.intValue("value", 1, 1, Integer.MAX_VALUE);
                out = LengthSpec.constant(v);
            }
            case "gaussian" -> {
                double mean = n.doubleValue("mean", 0, 1, 1e9);
                double sd = n.doubleValue("std_dev", 0, 0, 1e9);
                int min = n.intValue("min", 1, 1, Integer.MAX_VALUE);
                int max = n.intValue("max", Integer.MAX_VALUE, 1, Integer.MAX_VALUE);
                if (!n.has("mean")) {
                    n.problem(n.pathOf("mean"), "required for gaussian");
                }
                if (min > max) {
                    n.problem(n.pathOf("min"), "min " + min + " > max " + max);
                }
                out = LengthSpec.gaussian(mean, sd, min, max);
            }
            default -> {
                int min = n.intValue("min", 1, 1, Integer.MAX_VALUE);
                int max = n.intValue("max", 1, 1, Integer.MAX_VALUE);
                if (!n.has("min") || !n.has("max")) {
                    n.problem(n.path(), "uniform needs min and max");
                }
                if (min > max) {
                    n.problem(n.pathOf("min"), "min " + min + " > max " + max);
                }
                out = new LengthSpec("uniform", 0, (min + max) / 2.0, 0, min, max);
            }
        }
        n.finish();
        return out;
    }
}
