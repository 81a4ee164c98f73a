package io.servesim.workload.dist;

import io.servesim.config.Setting;
import io.servesim.config.ValueType;
import java.util.List;

/**
 * The settings of a distribution block {@code {type, params, is_int}} (BLIS workload spec v2 {@code DistSpec},
 * {@code sim/workload/distribution.go}), wherever one stands ({@code <distribution>}: a client's
 * {@code input_distribution}, {@code output_distribution} and {@code priority_distribution}, a conversation's
 * {@code turns} and {@code think_time_us}, a reasoning client's {@code reason_ratio_distribution} (percent), a
 * multimodal client's token and item-count distributions, an agentic step's lengths, a tool's {@code latency} and
 * {@code output_tokens}, a loop's {@code iterations}, an arrival process's {@code inter_arrival_us}). Parameters are in the unit of what the values measure (tokens,
 * turns, microseconds, priority), so their range is that of the block ({@link DistributionBinder.Kind}: token counts
 * >= 1, durations >= 0), checked by {@link DistributionParams}; each type reads only its own ({@link DistributionType}).
 */
public final class DistributionSettings {
    public static final Setting<String> TYPE = Setting.derived("<distribution>.type",
            ValueType.choice(DistributionType.names()), "required", "The distribution's family.");
    public static final Setting<Boolean> IS_INT = Setting.derived("<distribution>.is_int", ValueType.bool(),
            "true for token counts, turns, item counts and percentages (which must be), and durations; false for priorities",
            "Round draws to integers, half up, within [ceil(min), floor(max)].");
    public static final Setting<String> FILE = Setting.derived("<distribution>.file", ValueType.text(),
            "none (empirical: give file or pmf)", "empirical: a CSV file of value,weight lines (with that header), relative"
                    + " to the config's directory; or, beside type, pmf: {value: probability, ...}.");
    public static final Setting<Double> MIN = Setting.derived("<distribution>.params.min", number(),
            "the least value of what is measured (1 token, 0 us, 0 items, 0 percent; none for a priority)",
            "Lower clamp; uniform: the support's lower end (required).");
    public static final Setting<Double> MAX = Setting.derived("<distribution>.params.max", number(),
            "the most of what is measured (2^31 - 1 tokens, 10^15 us, 1000 items, 100 percent; none for a priority)",
            "Upper clamp; uniform: the support's upper end (required).");
    public static final Setting<Double> VALUE = Setting.derived("<distribution>.params.value", number(),
            "required for constant", "constant: the value.");
    public static final Setting<Double> MEAN = Setting.derived("<distribution>.params.mean", number(),
            "required for gaussian and exponential; lognormal, weibull, gamma: give it or mu / scale",
            "E[X]; > 0 except for gaussian.");
    public static final Setting<Double> STD_DEV = Setting.derived("<distribution>.params.std_dev", ValueType.real(0,
            Double.MAX_VALUE), "required for gaussian", "gaussian: the standard deviation.");
    public static final Setting<Double> MU = Setting.derived("<distribution>.params.mu", number(),
            "lognormal: give it or mean", "lognormal: the mean of ln X.");
    public static final Setting<Double> SIGMA = Setting.derived("<distribution>.params.sigma", positive(),
            "required for lognormal", "lognormal: the standard deviation of ln X.");
    public static final Setting<Double> ALPHA = Setting.derived("<distribution>.params.alpha", positive(),
            "required for pareto", "pareto: the shape.");
    public static final Setting<Double> XM = Setting.derived("<distribution>.params.xm", positive(),
            "required for pareto", "pareto: the minimum.");
    public static final Setting<Double> SHAPE = Setting.derived("<distribution>.params.shape", positive(),
            "required for weibull and gamma", "weibull, gamma: the shape.");
    public static final Setting<Double> SCALE = Setting.derived("<distribution>.params.scale", positive(),
            "weibull, gamma: give it or mean", "weibull, gamma: the scale (mean / Gamma(1 + 1/shape), mean / shape).");

    /** Every distribution setting, in documentation order. */
    public static final List<Setting<?>> ALL = List.of(TYPE, IS_INT, FILE, MIN, MAX, VALUE, MEAN, STD_DEV, MU, SIGMA, ALPHA,
            XM, SHAPE, SCALE);

    private DistributionSettings() {
    }

    private static ValueType.Real number() {
        return ValueType.real(-Double.MAX_VALUE, Double.MAX_VALUE);
    }

    private static ValueType.Real positive() {
        return ValueType.real(0, Double.MAX_VALUE).above();
    }
}
