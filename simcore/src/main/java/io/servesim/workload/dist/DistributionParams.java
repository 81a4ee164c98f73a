package io.servesim.workload.dist;

import io.servesim.config.ConfigNode;
import io.servesim.config.Setting;
import java.nio.file.Path;

/**
 * What a {@link DistributionType} builds its sampler from: the block being bound, its {@code params}
 * read through their settings ({@link DistributionSettings}) with per-constraint messages ({@code failed} once any is
 * missing or invalid), the bounds {@code min} and {@code max} (read first), and what the values mean
 * ({@link DistributionBinder.Kind}).
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
    private boolean choseMean;
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
        this.min = boundsRequired ? required(DistributionSettings.MIN) : optional(DistributionSettings.MIN, kind.floor);
        this.max = boundsRequired ? required(DistributionSettings.MAX) : optional(DistributionSettings.MAX, kind.ceiling);
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

    /** The parameter, {@code dflt} when absent; NaN when invalid. */
    private double optional(Setting<Double> s, double dflt) {
        Double v = p.get(s);
        if (v == null && p.has(s.key())) {
            failed = true;
            return Double.NaN;
        }
        return v == null ? dflt : v;
    }

    /** The parameter, within its setting's range; NaN when missing or invalid. */
    double required(Setting<Double> s) {
        Double v = p.get(s);
        if (!p.has(s.key())) {
            p.problem(p.pathOf(s.key()), "required for " + type);
        }
        failed |= v == null;
        return v == null ? Double.NaN : v;
    }

    /** The parameter, which must be > 0 here though its setting allows more (a gaussian's mean may be any number). */
    double positive(Setting<Double> s) {
        double v = required(s);
        if (v <= 0) {
            p.problem(p.pathOf(s.key()), "must be > 0, got " + DistributionBinder.fmt(v));
            failed = true;
        }
        return v;
    }

    /** A value the distribution yields, which must lie in {@code kind}'s range. */
    double within(Setting<Double> s) {
        double v = required(s);
        if (v < kind.floor || v > kind.ceiling) {
            p.problem(p.pathOf(s.key()), "must be in [" + DistributionBinder.fmt(kind.floor) + ", "
                    + DistributionBinder.fmt(kind.ceiling) + "] (" + kind.why + "), got " + DistributionBinder.fmt(v));
            failed = true;
        }
        return v;
    }

    /** Exactly one of {@code a} or {@code mean}; the mean must be > 0. */
    double orMean(Setting<Double> a) {
        Setting<Double> mean = DistributionSettings.MEAN;
        boolean hasA = p.has(a.key());
        if (hasA == p.has(mean.key())) {
            p.declare(a.key(), mean.key());
            p.problem(p.path(), type + " needs exactly one of " + a.key() + " or " + mean.key());
            failed = true;
            return Double.NaN;
        }
        choseMean = !hasA;
        p.declare(hasA ? mean.key() : a.key());
        return hasA ? required(a) : positive(mean);
    }

    /** Whether {@link #orMean} took the mean. */
    boolean choseMean() {
        return choseMean;
    }
}
