package io.servesim.workload.dist;

import java.util.Arrays;
import java.util.List;

/**
 * The distribution types of a {@code {type, params, is_int}} block (BLIS workload spec v2
 * {@code DistSpec}), each naming how its sampler is built from its parameters (as the Caffeine
 * simulator's {@code parser/TraceFormat} names each reader's constructor). Valid names in messages
 * come from {@link #names()}, in declaration order. Every type also takes the optional clamps
 * {@code min} and {@code max} in {@code params} (see {@link DistributionSpec} for clamping and
 * {@code is_int} rounding).
 *
 * <p>To add a type: write its raw {@link Sampler} (a factory in {@link Samplers}, or a class of its
 * own as {@link EmpiricalSampler}), declare its parameters in {@link DistributionSettings} (and its {@code ALL}) with
 * their ranges, and add one constant here reading them from {@link DistributionParams}, e.g.
 * {@code LOGISTIC("logistic", p -> Samplers.logistic(p.required(MU), p.required(S)))}.
 * {@code DistributionContractTest} then samples it within its bounds and checks that the same seed
 * gives the same draws.
 */
public enum DistributionType {
    /** {@code {value}}: always the value. */
    CONSTANT("constant", p -> Samplers.constant(p.within(DistributionSettings.VALUE))),
    /** {@code {min, max}} (required here: they are the support); with {@code is_int}, every integer in it equally likely. */
    UNIFORM("uniform", true, p -> p.isInt() ? Samplers.uniformInteger((long) Math.ceil(p.min()), (long) Math.floor(p.max()))
            : Samplers.uniform(p.min(), p.max())),
    /** {@code {mean, std_dev}}. */
    GAUSSIAN("gaussian", p -> Samplers.gaussian(p.required(DistributionSettings.MEAN),
            p.required(DistributionSettings.STD_DEV))),
    /** {@code {mean}}. */
    EXPONENTIAL("exponential", p -> Samplers.exponential(p.positive(DistributionSettings.MEAN))),
    /** {@code {sigma, and mu or mean}}: mu and sigma of ln X; {@code mean} is E[X], giving mu = ln(mean) - sigma^2/2. */
    LOGNORMAL("lognormal", DistributionType::lognormal),
    /** {@code {alpha, xm}}: shape and minimum. */
    PARETO("pareto", p -> Samplers.pareto(p.required(DistributionSettings.ALPHA),
            p.required(DistributionSettings.XM))),
    /** {@code {shape, and scale or mean}}: mean gives scale = mean / Gamma(1 + 1/shape). */
    WEIBULL("weibull", DistributionType::weibull),
    /** {@code {shape, and scale or mean}}: mean gives scale = mean / shape. */
    GAMMA("gamma", DistributionType::gamma),
    /**
     * A PMF {@code pmf: {value: probability, ...}} or {@code file: x.csv} (header {@code value,weight};
     * relative to the config's directory), exactly one of the two, beside {@code type}; the probabilities
     * must sum to 1 ({@link EmpiricalBinder}).
     */
    EMPIRICAL("empirical", EmpiricalBinder::bind);

    /** Builds a type's raw sampler from its parameters; null (with problems recorded) when they are invalid. */
    @FunctionalInterface
    interface Binder {
        Sampler bind(DistributionParams params);
    }

    private final String configName;
    private final boolean boundsRequired;
    private final Binder binder;

    DistributionType(String configName, Binder binder) {
        this(configName, false, binder);
    }

    DistributionType(String configName, boolean boundsRequired, Binder binder) {
        this.configName = configName;
        this.boundsRequired = boundsRequired;
        this.binder = binder;
    }

    /** The name in configs. */
    public String configName() {
        return configName;
    }

    /** Whether {@code params.min} and {@code params.max} are required (they are the support) rather than optional clamps. */
    boolean boundsRequired() {
        return boundsRequired;
    }

    /** Whether the data keys {@code pmf} and {@code file} (beside {@code type}, not in {@code params}) belong to this type. */
    boolean takesData() {
        return this == EMPIRICAL;
    }

    Sampler bind(DistributionParams params) {
        return binder.bind(params);
    }

    /** Every type's name, in declaration order. */
    public static List<String> names() {
        return Arrays.stream(values()).map(DistributionType::configName).toList();
    }

    /** The type called {@code name} (case-insensitive). */
    public static DistributionType of(String name) {
        for (DistributionType t : values()) {
            if (t.configName.equalsIgnoreCase(name)) {
                return t;
            }
        }
        throw new IllegalArgumentException("unknown distribution type '" + name + "'; valid: " + String.join(", ", names()));
    }

    private static Sampler lognormal(DistributionParams p) {
        double sigma = p.required(DistributionSettings.SIGMA);
        double mu = p.orMean(DistributionSettings.MU);
        if (p.choseMean()) {
            mu = Math.log(mu) - sigma * sigma / 2;
        }
        return Samplers.lognormal(mu, sigma);
    }

    private static Sampler weibull(DistributionParams p) {
        double shape = p.required(DistributionSettings.SHAPE);
        double scale = p.orMean(DistributionSettings.SCALE);
        if (p.choseMean() && shape > 0) {
            scale = scale / SpecialFunctions.gamma(1 + 1 / shape);
        }
        return Samplers.weibull(shape, scale);
    }

    private static Sampler gamma(DistributionParams p) {
        double shape = p.required(DistributionSettings.SHAPE);
        double scale = p.orMean(DistributionSettings.SCALE);
        if (p.choseMean() && shape > 0) {
            scale = scale / shape;
        }
        return Samplers.gamma(shape, scale);
    }
}
