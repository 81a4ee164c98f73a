package io.servesim.policy;

import io.servesim.cluster.PriorityPolicy;
import io.servesim.config.ConfigException;
import io.servesim.engine.Request;
import io.servesim.slo.SloTargets;
import java.util.Map;
import java.util.Set;

/**
 * Priority templates (BLIS {@code sim/priority.go} plus tenant and deadline variants). Higher
 * scores are served first by priority-aware schedulers.
 * <ul>
 *   <li>{@code constant {value}}: every request scores {@code value} (default 0): no prioritisation.</li>
 *   <li>{@code slo-based {class_scores, default_score, age_weight}}: class score of the request's SLO
 *       class + the workload's per-request priority + age_weight x age in seconds. Default class
 *       scores: realtime 10, interactive 5, standard 3, batch 1, background 0.</li>
 *   <li>{@code tenant-priority {tenant_scores, default_score, age_weight}}: the same with per-tenant scores.</li>
 *   <li>{@code deadline-aware {default_ttft_ms}}: earliest deadline first, deadline = arrival + the TTFT
 *       target of the request's SLO class ({@code slo.classes}); classes without one use
 *       {@code default_ttft_ms} (default 10 s). Score = -deadline in seconds.</li>
 *   <li>{@code inverted-slo}: the negated slo-based score (pathological: batch and young first).</li>
 * </ul>
 * Every template's order is time-invariant, so a wait queue can key on {@link PriorityPolicy#rankKey}.
 */
public final class Priorities {
    /** Default SLO class scores of slo-based: the classes' importance. */
    public static final Map<String, Double> DEFAULT_CLASS_SCORES = SloTargets.DEFAULT_CLASS_IMPORTANCE;

    public static final Registry<PriorityPolicy> REGISTRY = new Registry<PriorityPolicy>("priority")
            .register("constant", (spec, ctx) -> constant(spec))
            .register("slo-based", (spec, ctx) -> scored(spec, "class_scores", DEFAULT_CLASS_SCORES, false, 1))
            .register("tenant-priority", (spec, ctx) -> scored(spec, "tenant_scores", Map.of(), true, 1))
            .register("deadline-aware", Priorities::deadlineAware)
            .register("inverted-slo", (spec, ctx) -> scored(spec, "class_scores", DEFAULT_CLASS_SCORES, false, -1));

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

    private static PriorityPolicy scored(PolicySpec spec, String scoresKey, Map<String, Double> dfltScores,
                                         boolean byTenant, int sign) {
        spec.requireOnly(Set.of(scoresKey, "default_score", "age_weight"));
        Map<String, Double> scores = spec.numberMap(scoresKey, dfltScores);
        double dflt = spec.number("default_score", 0);
        double ageWeightPerSec = spec.number("age_weight", 1.0);
        if (ageWeightPerSec < 0) {
            throw new ConfigException(spec.path() + ".params.age_weight", "must be >= 0");
        }
        return new PriorityPolicy() {
            private double base(Request r) {
                String key = byTenant ? r.tags().tenantId() : r.tags().sloClass();
                return scores.getOrDefault(key, dflt) + r.priority();
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

    private static PriorityPolicy deadlineAware(PolicySpec spec, PolicyContext ctx) {
        spec.requireOnly(Set.of("default_ttft_ms"));
        double dfltMs = spec.number("default_ttft_ms", 10_000);
        if (!(dfltMs > 0)) {
            throw new ConfigException(spec.path() + ".params.default_ttft_ms", "must be > 0");
        }
        long fallbackUs = Math.round(dfltMs * 1000);
        return new PriorityPolicy() {
            @Override
            public double scoreAt(Request r, long nowUs) {
                return rankKey(r);
            }

            @Override
            public double rankKey(Request r) {
                return -(r.arrivalUs() + ctx.slo().ttftTargetUs(r.tags().sloClass(), fallbackUs)) / 1e6;
            }
        };
    }
}
