package io.servesim.policy;

import io.servesim.engine.Request;
import java.util.Map;
import java.util.Set;

/**
 * Priority templates (BLIS {@code sim/priority.go}: constant, slo-based, inverted-slo).
 * <ul>
 *   <li>{@code constant {value}}: every request scores {@code value} (default 0): no prioritisation.</li>
 *   <li>{@code slo-based {class_scores, default_score, age_weight}}: score = class score of the
 *       request's SLO class + the workload's per-request priority + age_weight x age in seconds.
 *       Default class scores: realtime 10, interactive 5, standard 3, batch 1, background 0.</li>
 *   <li>{@code inverted-slo}: the negated slo-based score (pathological: batch and young first).</li>
 * </ul>
 */
public final class Priorities {
    /** Default SLO class scores of slo-based. */
    public static final Map<String, Double> DEFAULT_CLASS_SCORES =
            Map.of("realtime", 10.0, "interactive", 5.0, "standard", 3.0, "batch", 1.0, "background", 0.0);

    private static final Set<String> SLO_PARAMS = Set.of("class_scores", "default_score", "age_weight");

    public static final Registry<PriorityPolicy> REGISTRY = new Registry<PriorityPolicy>("priority")
            .register("constant", Priorities::constant)
            .register("slo-based", spec -> sloBased(spec, 1))
            .register("inverted-slo", spec -> sloBased(spec, -1));

    private Priorities() {
    }

    private static PriorityPolicy constant(PolicySpec spec) {
        spec.requireOnly(Set.of("value"));
        double value = spec.number("value", 0);
        return new PriorityPolicy() {
            @Override
            public double scoreAt(Request r, long nowUs) {
                return value;
            }

            @Override
            public double rankKey(Request r) {
                return value;
            }
        };
    }

    private static PriorityPolicy sloBased(PolicySpec spec, int sign) {
        spec.requireOnly(SLO_PARAMS);
        Map<String, Double> scores = spec.numberMap("class_scores", DEFAULT_CLASS_SCORES);
        double dflt = spec.number("default_score", 0);
        double ageWeightPerSec = spec.number("age_weight", 1.0);
        if (ageWeightPerSec < 0) {
            throw new io.servesim.config.ConfigException(spec.path() + ".params.age_weight", "must be >= 0");
        }
        return new PriorityPolicy() {
            private double base(Request r) {
                return scores.getOrDefault(r.tags().sloClass(), dflt) + r.priority();
            }

            @Override
            public double scoreAt(Request r, long nowUs) {
                return sign * (base(r) + ageWeightPerSec * (nowUs - r.arrivalUs()) / 1e6);
            }

            @Override
            public double rankKey(Request r) {
                // scoreAt(t) = sign*(base + w*t/1e6) - sign*w*arrival/1e6: the t-term is common to all.
                return sign * (base(r) - ageWeightPerSec * r.arrivalUs() / 1e6);
            }
        };
    }
}
