package io.servesim.workload.inferenceperf;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.servesim.config.ConfigNode;
import java.util.List;

/**
 * An inference-perf length distribution ({@code inference_perf/config/common.py} {@code Distribution} @ 7de5ef2e:
 * {@code type} normal by default, {@code min} 10, {@code max} 1024, {@code mean} 512, {@code std_dev} 200 or
 * {@code variance}) as a servesim distribution block. Both draw, clip to [min, max] and round
 * ({@code inference_perf/utils/numeric/distribution/utils.py}); numpy rounds halves to even, servesim up, which moves
 * no mean by more than a token in 10^4.
 * <ul>
 *   <li>{@code fixed}: int(mean), unclipped, as inference-perf: {@code constant}.</li>
 *   <li>{@code normal}: {@code gaussian} {mean, std_dev} clipped to [min, max].</li>
 *   <li>{@code lognormal}: moment-matched, sigma^2 = ln(1 + (std_dev / mean)^2) and E[X] = mean, servesim's
 *       {@code lognormal} {mean, sigma}, clipped; std_dev 0 is the mean, clipped. The random and synthetic data types
 *       draw theirs ({@code generate_distribution}) shifted by min, which servesim's lognormal cannot say: refused
 *       there.</li>
 *   <li>{@code uniform}: every integer in [min, max] equally likely ({@code uniform} with integer draws); inference-perf
 *       rounds a continuous draw, giving its two ends half or one and a half times the others' weight.</li>
 *   <li>{@code skew_normal}, {@code poisson}: servesim has no such distribution; refused.</li>
 * </ul>
 */
final class LengthDistribution {
    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    private LengthDistribution() {
    }

    /** Always {@code tokens}. */
    static ObjectNode constant(long tokens) {
        ObjectNode d = F.objectNode().put("type", "constant");
        d.putObject("params").put("value", tokens);
        return d;
    }

    /**
     * The distribution at {@code d}; {@code shifted}: a random or synthetic data type's ({@code generate_distribution},
     * whose lognormal is shifted by min). On a problem (recorded) the result is a placeholder never bound.
     */
    static ObjectNode of(ConfigNode d, boolean shifted) {
        String type = d.choice("type", "normal", List.of("normal", "skew_normal", "lognormal", "uniform", "poisson", "fixed"));
        long min = d.longValue("min", 10, 0, Integer.MAX_VALUE);
        long max = d.longValue("max", 1024, 0, Integer.MAX_VALUE);
        double mean = d.doubleValue("mean", 512, -Double.MAX_VALUE, Double.MAX_VALUE);
        double stdDev = d.doubleValue("std_dev", 200, 0, Double.MAX_VALUE);
        if (d.has("variance")) {
            if (d.has("std_dev")) {
                d.problem(d.pathOf("variance"), "set beside std_dev; set one of them");
            }
            stdDev = Math.sqrt(d.doubleValue("variance", 0, 0, Double.MAX_VALUE));
        }
        d.declare("skew", "total_count");
        if (min > max) {
            d.problem(d.pathOf("min"), "min (" + min + ") is above max (" + max + ")");
        }
        d.finish();
        ObjectNode out = F.objectNode();
        ObjectNode params = F.objectNode();
        switch (type == null ? "normal" : type) {
            case "fixed" -> {
                return constant((long) mean);
            }
            case "normal" -> {
                if (shifted && (mean < min || mean > max)) {
                    d.problem(d.pathOf("mean"), "must lie in [min, max] = [" + min + ", " + max + "] for the random and"
                            + " synthetic data types (generate_distribution), got " + mean);
                }
                out.put("type", "gaussian");
                params.put("mean", mean).put("std_dev", stdDev);
            }
            case "lognormal" -> {
                if (shifted) {
                    d.problem(d.pathOf("type"), "the random and synthetic data types shift a lognormal by min"
                            + " (generate_distribution), which servesim's lognormal cannot; use normal or uniform");
                } else if (!(mean > 0)) {
                    d.problem(d.pathOf("mean"), "a lognormal needs mean > 0, got " + mean);
                }
                if (stdDev == 0) {
                    out.put("type", "constant");
                    params.put("value", mean);
                } else {
                    out.put("type", "lognormal");
                    params.put("mean", mean).put("sigma", Math.sqrt(Math.log(1 + stdDev * stdDev / (mean * mean))));
                }
            }
            case "uniform" -> out.put("type", "uniform");
            default -> d.problem(d.pathOf("type"), "'" + type + "' is not modelled: servesim has no " + type
                    + " distribution; use normal, lognormal, uniform or fixed");
        }
        params.put("min", min).put("max", max);
        out.set("params", params);
        return out;
    }
}
