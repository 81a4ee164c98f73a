package io.servesim.workload.dist;

import io.servesim.config.ConfigNode;
import java.nio.file.Path;

/**
 * What a {@link DistributionType} builds its sampler from: the block being bound, its {@code params}
 * read with per-constraint messages ({@code failed} once any is missing or invalid), the bounds
 * {@code min} and {@code max} (read first), and what the values mean ({@link DistributionBinder.Kind}).
 */
final class DistributionParams {
    private final ConfigNode node;
    private final ConfigNode p;
    private final String type;
    private final DistributionBinder.Kind kind;
    private final boolean isInt;
    private final Path baseDir;
    private final double min;
    private final double max;
    private String chosen;
    private boolean failed;

    /**
     * Reads the bounds: required when {@code boundsRequired} (they are the support), else optional
     * clamps defaulting to {@code kind}'s range.
     */
    DistributionParams(ConfigNode node, ConfigNode params, String type, DistributionBinder.Kind kind, boolean isInt,
                       Path baseDir, boolean boundsRequired) {
        this.node = node;
        this.p = params;
        this.type = type;
        this.kind = kind;
        this.isInt = isInt;
        this.baseDir = baseDir;
        this.min = boundsRequired ? required("min") : optional("min", kind.floor);
        this.max = boundsRequired ? required("max") : optional("max", kind.ceiling);
    }

    /** The distribution block ({@code type}, {@code params}, {@code is_int} and any data keys). */
    ConfigNode node() {
        return node;
    }

    DistributionBinder.Kind kind() {
        return kind;
    }

    boolean isInt() {
        return isInt;
    }

    /** The config's directory, against which data files are resolved. */
    Path baseDir() {
        return baseDir;
    }

    double min() {
        return min;
    }

    double max() {
        return max;
    }

    /** Whether a parameter was missing or invalid (its problem is recorded). */
    boolean failed() {
        return failed;
    }

    private double optional(String key, double dflt) {
        double v = p.doubleValue(key, Double.NaN, -Double.MAX_VALUE, Double.MAX_VALUE);
        if (!p.has(key)) {
            return dflt;
        }
        failed |= Double.isNaN(v);
        return v;
    }

    double required(String key) {
        double v = p.doubleValue(key, Double.NaN, -Double.MAX_VALUE, Double.MAX_VALUE);
        if (!p.has(key)) {
            p.problem(p.pathOf(key), "required for " + type);
        }
        failed |= Double.isNaN(v);
        return v;
    }

    double positive(String key) {
        double v = required(key);
        if (v <= 0) {
            p.problem(p.pathOf(key), "must be > 0, got " + DistributionBinder.fmt(v));
            failed = true;
        }
        return v;
    }

    /** A value the distribution yields, which must lie in {@code kind}'s range. */
    double within(String key) {
        double v = required(key);
        if (v < kind.floor || v > kind.ceiling) {
            p.problem(p.pathOf(key), "must be in [" + DistributionBinder.fmt(kind.floor) + ", " + DistributionBinder.fmt(kind.ceiling)
                    + "] (" + kind.why + "), got " + DistributionBinder.fmt(v));
            failed = true;
        }
        return v;
    }

    double nonNegative(String key) {
        double v = required(key);
        if (v < 0) {
            p.problem(p.pathOf(key), "must be >= 0, got " + DistributionBinder.fmt(v));
            failed = true;
        }
        return v;
    }

    /** Exactly one of {@code a} or {@code b}; {@code b} (and {@code a} if {@code aPositive}) must be > 0. */
    double oneOf(String a, String b, boolean aPositive) {
        boolean hasA = p.has(a);
        boolean hasB = p.has(b);
        if (hasA == hasB) {
            p.doubleValue(a, 0, -Double.MAX_VALUE, Double.MAX_VALUE);
            p.doubleValue(b, 0, -Double.MAX_VALUE, Double.MAX_VALUE);
            p.problem(p.path(), type + " needs exactly one of " + a + " or " + b);
            failed = true;
            return Double.NaN;
        }
        chosen = hasA ? a : b;
        p.doubleValue(hasA ? b : a, 0, -Double.MAX_VALUE, Double.MAX_VALUE);
        return hasA && !aPositive ? required(a) : positive(chosen);
    }

    /** Whether {@link #oneOf} took {@code key}. */
    boolean chose(String key) {
        return key.equals(chosen);
    }
}
