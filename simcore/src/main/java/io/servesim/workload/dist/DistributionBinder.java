package io.servesim.workload.dist;

import io.servesim.config.ConfigNode;
import java.nio.file.Path;

/**
 * Binds a distribution block {@code {type, params, is_int}} (BLIS workload spec v2
 * {@code DistSpec}, {@code sim/workload/distribution.go}; its settings are {@link DistributionSettings}),
 * strictly: unknown types list the valid ones ({@link DistributionType#names()}), unknown parameters
 * list the type's parameters, every problem names its path. The types and their parameters are the
 * constants of {@link DistributionType}; every type also takes optional clamps {@code min} and
 * {@code max} in {@code params}. See {@link DistributionSpec} for the clamping and {@code is_int}
 * rounding rules.
 */
public final class DistributionBinder {
    /** What a distribution's values mean, which fixes its bounds and rounding. */
    public enum Kind {
        /** Token counts: integers in [1, 2^31 - 1]. */
        TOKENS(1, Integer.MAX_VALUE, true, true, "token counts are integers >= 1"),
        /** Counts such as conversation turns: integers in [1, 2^31 - 1]. */
        COUNT(1, Integer.MAX_VALUE, true, true, "counts are integers >= 1"),
        /** Durations in microseconds: >= 0, rounded to whole microseconds. */
        MICROS(0, 1e15, true, false, "durations are >= 0"),
        /** Items per message (a multimodal client's images, audio clips, videos): integers in [0, 1000]. */
        ITEMS(0, 1000, true, true, "item counts are integers in [0, 1000]"),
        /** Percentages (a reasoning client's reason_ratio_distribution): integers in [0, 100], as BLIS samples them. */
        PERCENT(0, 100, true, true, "percentages are integers in [0, 100]"),
        /** Real values (priorities): unbounded, real unless is_int is given. */
        REAL(-Double.MAX_VALUE, Double.MAX_VALUE, false, false, "");

        final double floor;
        final double ceiling;
        final boolean intByDefault;
        final boolean intRequired;
        final String why;

        Kind(double floor, double ceiling, boolean intByDefault, boolean intRequired, String why) {
            this.floor = floor;
            this.ceiling = ceiling;
            this.intByDefault = intByDefault;
            this.intRequired = intRequired;
            this.why = why;
        }
    }

    private DistributionBinder() {
    }

    /** Binds a present distribution block; returns null (with problems recorded) when it is invalid. */
    public static DistributionSpec bind(ConfigNode n, Kind kind, Path baseDir) {
        String name = n.get(DistributionSettings.TYPE);
        Boolean given = n.get(DistributionSettings.IS_INT);
        boolean isInt = given == null ? kind.intByDefault : given;
        if (kind.intRequired && !isInt) {
            n.problem(n.pathOf("is_int"), "must be true here (" + kind.why + ")");
        }
        ConfigNode p = n.child("params");
        if (name == null) {
            if (!n.has("type")) {
                n.problem(n.pathOf("type"), "required; valid: " + String.join(", ", DistributionType.names()));
            }
            return null;
        }
        DistributionType type = DistributionType.of(name);
        DistributionParams params = new DistributionParams(n, p, name, kind, isInt, baseDir, type.boundsRequired());
        Sampler sampler = type.bind(params);
        if (!type.takesData()) {
            n.declare("pmf", DistributionSettings.FILE.key());
            for (String k : new String[] {"pmf", DistributionSettings.FILE.key()}) {
                if (n.has(k)) {
                    n.problem(n.pathOf(k), "only for type " + DistributionType.EMPIRICAL.configName());
                }
            }
        }
        p.finish();
        n.finish();
        boolean ok = checkBounds(n, p, kind, params.min(), params.max(), isInt);
        if (sampler == null || params.failed() || !ok) {
            return null;
        }
        // the clamps hold what a draw can be: a constant is its value, an empirical PMF at most its largest value
        double max = params.max();
        double min = params.min();
        if (type == DistributionType.CONSTANT) {
            double value = sampler.draw(null); // a constant sampler ignores the generator
            min = max = Math.max(min, Math.min(max, isInt ? Math.floor(value + 0.5) : value)); // rounded as draws are
        } else if (sampler instanceof EmpiricalSampler e) {
            max = Math.max(min, Math.min(max, e.largest()));
        }
        return new DistributionSpec(name, sampler, min, max, isInt);
    }

    private static boolean checkBounds(ConfigNode n, ConfigNode p, Kind kind, double min, double max, boolean isInt) {
        if (Double.isNaN(min) || Double.isNaN(max)) {
            return false;
        }
        boolean ok = true;
        if (min < kind.floor) {
            n.problem(p.pathOf("min"), "must be >= " + fmt(kind.floor) + " (" + kind.why + "), got " + fmt(min));
            ok = false;
        }
        if (max > kind.ceiling) {
            n.problem(p.pathOf("max"), "must be <= " + fmt(kind.ceiling) + ", got " + fmt(max));
            ok = false;
        }
        if (min > max) {
            n.problem(p.pathOf("min"), "min " + fmt(min) + " > max " + fmt(max));
            ok = false;
        } else if (isInt && Math.ceil(min) > Math.floor(max)) {
            n.problem(p.pathOf("min"), "no integer lies in [min, max] = [" + fmt(min) + ", " + fmt(max) + "]");
            ok = false;
        }
        return ok;
    }

    /** {@code x} as written in a message: an integer without a decimal point. */
    public static String fmt(double x) {
        return x == Math.rint(x) && Math.abs(x) < 1e15 ? Long.toString((long) x) : Double.toString(x);
    }
}
