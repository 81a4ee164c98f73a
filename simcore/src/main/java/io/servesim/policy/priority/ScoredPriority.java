package io.servesim.policy.priority;

import io.servesim.cluster.PriorityPolicy;
import io.servesim.config.ConfigException;
import io.servesim.engine.Request;
import io.servesim.policy.NamesWorkloadKeys;
import io.servesim.policy.PolicySpec;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The shape BLIS's {@code sim/priority.go} SLO-based priority has, shared by the templates that
 * score a request by a key of its tags: {@code sign x (scores[key] + the workload's per-request
 * priority + age_weight x age in seconds)}, with {@code default_score} for keys without a score and
 * {@code age_weight >= 0} (default 1). The order is time-invariant: the age term is the same shift
 * for every request.
 */
abstract class ScoredPriority implements PriorityPolicy, NamesWorkloadKeys {
    private final Map<String, Double> scores;
    private final double defaultScore;
    private final double ageWeightPerSec;
    private final int sign;
    private final boolean byTenant;
    private final List<KeyedParam> keyedParams;

    /**
     * @param scoresKey  the parameter holding the per-key scores
     * @param dfltScores scores when that parameter is absent
     * @param byTenant   keys are tenant ids (else SLO classes)
     * @param sign       1, or -1 to invert the order
     */
    ScoredPriority(PolicySpec spec, String scoresKey, Map<String, Double> dfltScores, boolean byTenant, int sign) {
        spec.requireOnly(Set.of(scoresKey, "default_score", "age_weight"));
        this.scores = spec.numberMap(scoresKey, dfltScores);
        this.defaultScore = spec.number("default_score", 0);
        this.ageWeightPerSec = spec.number("age_weight", 1.0);
        if (ageWeightPerSec < 0) {
            throw new ConfigException(spec.path() + ".params.age_weight", "must be >= 0");
        }
        this.sign = sign;
        this.byTenant = byTenant;
        this.keyedParams = spec.params().containsKey(scoresKey)
                ? List.of(new KeyedParam(scoresKey, byTenant, scores.keySet())) : List.of();
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
