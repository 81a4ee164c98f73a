package io.servesim.policy.priority;

import io.servesim.cluster.PriorityPolicy;
import io.servesim.config.Setting;
import io.servesim.config.ValueType;
import io.servesim.engine.Request;
import io.servesim.policy.NamesWorkloadKeys;
import io.servesim.policy.PolicySpec;
import java.util.List;
import java.util.Map;

/**
 * The shape BLIS's {@code sim/priority.go} SLO-based priority has, shared by the templates that
 * score a request by a key of its tags: {@code sign x (scores[key] + the workload's per-request
 * priority + age_weight x age in seconds)}, with {@code default_score} for keys without a score and
 * {@code age_weight >= 0} (default 1). The order is time-invariant: the age term is the same shift
 * for every request.
 */
abstract class ScoredPriority implements PriorityPolicy, NamesWorkloadKeys {
    /**
     * The parameters of one template, declared at its own paths ({@link #params}).
     *
     * @param scores       the per-key scores
     * @param defaultScore the score of a key without one
     * @param ageWeight    score per second of waiting
     * @param byTenant     keys are tenant ids (else SLO classes)
     */
    record Params(Setting<Map<String, Double>> scores, Setting<Double> defaultScore, Setting<Double> ageWeight,
                  boolean byTenant) {
        List<Setting<?>> all() {
            return List.of(scores, defaultScore, ageWeight);
        }
    }

    private final Map<String, Double> scores;
    private final double defaultScore;
    private final double ageWeightPerSec;
    private final int sign;
    private final boolean byTenant;
    private final List<KeyedParam> keyedParams;

    /**
     * @param spec   the template's spec
     * @param params its parameters
     * @param sign   1, or -1 to invert the order
     */
    ScoredPriority(PolicySpec spec, Params params, int sign) {
        this.scores = spec.get(params.scores());
        this.defaultScore = spec.get(params.defaultScore());
        this.ageWeightPerSec = spec.get(params.ageWeight());
        this.sign = sign;
        this.byTenant = params.byTenant();
        this.keyedParams = spec.has(params.scores())
                ? List.of(new KeyedParam(params.scores().key(), byTenant, scores.keySet())) : List.of();
    }

    /**
     * The parameters of template {@code policy}: scores per key under {@code scoresKey} ({@code dfltScores} when
     * absent), {@code default_score} and {@code age_weight}.
     */
    static Params params(String policy, String scoresKey, Map<String, Double> dfltScores, boolean byTenant) {
        String at = "policies.priority[" + policy + "].params.";
        String key = byTenant ? "tenant" : "SLO class";
        return new Params(Setting.of(at + scoresKey, ValueType.mapping(Scores.TYPE), dfltScores,
                        "Score per " + key + " (" + key + ": score), added to the workload's per-request priority."),
                Setting.of(at + "default_score", Scores.TYPE, 0.0, "The score of " + (byTenant ? "a " : "an ") + key
                        + " without one."),
                Setting.of(at + "age_weight", ValueType.real(0, 1000).in("per second", "at 1000 a millisecond of"
                        + " waiting outweighs a class's score step"), 1.0, "Score added per second of waiting."),
                byTenant);
    }

    private double base(Request r) {
        String key = byTenant ? r.tags().tenantId() : r.tags().sloClass();
        return scores.getOrDefault(key, defaultScore) + r.priority();
    }

    @Override
    public final double scoreAt(Request r, long nowUs) {
        return sign * (base(r) + ageWeightPerSec * (nowUs - r.arrivalUs()) / 1e6);
    }

    @Override
    public final double rankKey(Request r) {
        // scoreAt(t) = sign*(base + w*t/1e6) - sign*w*arrival/1e6: the t-term is common to all.
        return sign * (base(r) - ageWeightPerSec * r.arrivalUs() / 1e6);
    }

    @Override
    public final List<KeyedParam> keyedParams() {
        return keyedParams;
    }
}
