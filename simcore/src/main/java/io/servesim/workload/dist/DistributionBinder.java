package io.servesim.workload.dist;

import io.servesim.config.ConfigNode;
import java.nio.file.Path;
import java.util.List;

/**
 * Binds a distribution block {@code {type, params, is_int}} (BLIS workload spec v2
 * {@code DistSpec}, {@code sim/workload/distribution.go}), strictly: unknown types list the valid
 * ones, unknown parameters list the type's parameters, every problem names its path.
 *
 * <p>Types and parameters (every type also takes optional clamps {@code min} and {@code max}
 * in {@code params}):
 * <ul>
 *   <li>{@code constant {value}}</li>
 *   <li>{@code uniform {min, max}} (required here: they are the support)</li>
 *   <li>{@code gaussian {mean, std_dev}}: clamped to [min, max]</li>
 *   <li>{@code exponential {mean}}</li>
 *   <li>{@code lognormal {sigma, and mu or mean}}: mu and sigma of ln X; {@code mean} is E[X], giving mu = ln(mean) - sigma^2/2</li>
 *   <li>{@code pareto {alpha, xm}}: shape and minimum</li>
 *   <li>{@code weibull {shape, and scale or mean}}: mean gives scale = mean / Gamma(1 + 1/shape)</li>
 *   <li>{@code gamma {shape, and scale or mean}}: mean gives scale = mean / shape</li>
 *   <li>{@code empirical}: a PMF {@code pmf: {value: probability, ...}} or {@code file: x.csv} (header
 *       {@code value,weight}; relative to the config's directory), exactly one of the two; the
 *       probabilities must sum to 1</li>
 * </ul>
 * See {@link DistributionSpec} for the clamping and {@code is_int} rounding rules.
 */
public final class DistributionBinder {
    public static final List<String> TYPES =
            List.of("constant", "uniform", "gaussian", "exponential", "lognormal", "pareto", "weibull", "gamma", "empirical");

    /** What a distribution's values mean, which fixes its bounds and rounding. */
    public enum Kind {
        /** Token counts: integers in [1, 2^31 - 1]. */
        TOKENS(1, Integer.MAX_VALUE, true, true, "token counts are integers >= 1"),
        /** Counts such as conversation turns: integers in [1, 2^31 - 1]. */
        COUNT(1, Integer.MAX_VALUE, true, true, "counts are integers >= 1"),
        /** Durations in microseconds: >= 0, rounded to whole microseconds. */
        MICROS(0, 1e15, true, false, "durations are >= 0"),
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
        String type = n.choice("type", null, TYPES);
        boolean isInt = n.boolValue("is_int", kind.intByDefault);
        if (kind.intRequired && !isInt) {
            n.problem(n.pathOf("is_int"), "must be true here (" + kind.why + ")");
        }
        ConfigNode p = n.child("params");
        if (type == null) {
            if (!n.has("type")) {
                n.problem(n.pathOf("type"), "required; valid: " + String.join(", ", TYPES));
            }
            return null;
        }
        Params params = new Params(p, type);
        double min = "uniform".equals(type) ? params.required("min") : params.optional("min", kind.floor);
        double max = "uniform".equals(type) ? params.required("max") : params.optional("max", kind.ceiling);
        Sampler sampler = switch (type) {
            case "constant" -> Samplers.constant(params.within("value", kind));
            case "uniform" -> isInt ? Samplers.uniformInteger((long) Math.ceil(min), (long) Math.floor(max))
                    : Samplers.uniform(min, max);
            case "gaussian" -> Samplers.gaussian(params.required("mean"), params.nonNegative("std_dev"));
            case "exponential" -> Samplers.exponential(params.positive("mean"));
            case "lognormal" -> lognormal(params);
            case "pareto" -> Samplers.pareto(params.positive("alpha"), params.positive("xm"));
            case "weibull" -> weibull(params);
            case "gamma" -> gamma(params);
            default -> EmpiricalBinder.bind(n, kind, baseDir);
        };
        if (!"empirical".equals(type)) {
            n.rawValue("pmf");
            n.rawValue("file");
            for (String k : new String[] {"pmf", "file"}) {
                if (n.has(k)) {
                    n.problem(n.pathOf(k), "only for type empirical");
                }
            }
        }
        p.finish();
        n.finish();
        boolean ok = checkBounds(n, p, kind, min, max, isInt);
        if (sampler == null || params.failed || !ok) {
            return null;
        }
        return new DistributionSpec(type, sampler, min, max, isInt);
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

    private static Sampler lognormal(Params params) {
        double sigma = params.positive("sigma");
        double mu = params.oneOf("mu", "mean", false);
        if (params.chose("mean")) {
            mu = Math.log(mu) - sigma * sigma / 2;
        }
        return Samplers.lognormal(mu, sigma);
    }

    private static Sampler weibull(Params params) {
        double shape = params.positive("shape");
        double scale = params.oneOf("scale", "mean", true);
        if (params.chose("mean") && shape > 0) {
            scale = scale / SpecialFunctions.gamma(1 + 1 / shape);
        }
        return Samplers.weibull(shape, scale);
    }

    private static Sampler gamma(Params params) {
        double shape = params.positive("shape");
        double scale = params.oneOf("scale", "mean", true);
        if (params.chose("mean") && shape > 0) {
            scale = scale / shape;
        }
        return Samplers.gamma(shape, scale);
    }

    static String fmt(double x) {
        return x == Math.rint(x) && Math.abs(x) < 1e15 ? Long.toString((long) x) : Double.toString(x);
    }

    /** Reads numeric parameters with per-constraint messages; {@code failed} once any is missing or invalid. */
    private static final class Params {
        private final ConfigNode p;
        private final String type;
        private String chosen;
        boolean failed;

        Params(ConfigNode p, String type) {
            this.p = p;
            this.type = type;
        }

        double optional(String key, double dflt) {
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
                p.problem(p.pathOf(key), "must be > 0, got " + fmt(v));
                failed = true;
            }
            return v;
        }

        double within(String key, Kind kind) {
            double v = required(key);
            if (v < kind.floor || v > kind.ceiling) {
                p.problem(p.pathOf(key), "must be in [" + fmt(kind.floor) + ", " + fmt(kind.ceiling) + "] (" + kind.why + "), got " + fmt(v));
                failed = true;
            }
            return v;
        }

        double nonNegative(String key) {
            double v = required(key);
            if (v < 0) {
                p.problem(p.pathOf(key), "must be >= 0, got " + fmt(v));
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

        boolean chose(String key) {
            return key.equals(chosen);
        }
    }
}
