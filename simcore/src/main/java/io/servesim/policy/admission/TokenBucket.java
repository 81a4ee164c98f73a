package io.servesim.policy.admission;

import io.servesim.cluster.AdmissionDecision;
import io.servesim.cluster.AdmissionPolicy;
import io.servesim.config.ConfigException;
import io.servesim.engine.Request;
import io.servesim.policy.PolicyContext;
import io.servesim.policy.PolicySpec;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * {@code token-bucket {capacity, refill_per_s, per_tenant, cost}}: token-bucket admission: a bucket of {@code capacity} tokens refilled continuously at
 * {@code refill_per_s}; a request costs one token ({@code cost: requests}) or its prompt length
 * ({@code cost: input_tokens}) and is rejected when the bucket holds less. With
 * {@code per_tenant: true} every tenant has its own bucket. Buckets start full.
 */
final class TokenBucket implements AdmissionPolicy {
    private static final AdmissionDecision EMPTY = AdmissionDecision.reject("token-bucket: bucket empty");

    private final double capacity;
    private final double refillPerUs;
    private final boolean perTenant;
    private final boolean costByTokens;
    private final Map<String, double[]> buckets = new HashMap<>();

    private TokenBucket(double capacity, double refillPerSec, boolean perTenant, boolean costByTokens) {
        this.capacity = capacity;
        this.refillPerUs = refillPerSec / 1e6;
        this.perTenant = perTenant;
        this.costByTokens = costByTokens;
    }

    static AdmissionPolicy create(PolicySpec spec, PolicyContext ctx) {
        spec.requireOnly(Set.of("capacity", "refill_per_s", "per_tenant", "cost"));
        double capacity = spec.positive("capacity", Double.NaN);
        double refillPerSec = spec.number("refill_per_s", Double.NaN);
        if (!(refillPerSec >= 0)) {
            throw new ConfigException(spec.path() + ".params.refill_per_s", "required, >= 0 (tokens per second)");
        }
        Object perTenant = spec.params().getOrDefault("per_tenant", "false");
        if (!"true".equals(perTenant.toString()) && !"false".equals(perTenant.toString())) {
            throw new ConfigException(spec.path() + ".params.per_tenant", "must be true or false");
        }
        Object cost = spec.params().getOrDefault("cost", "requests");
        if (!"requests".equals(cost) && !"input_tokens".equals(cost)) {
            throw new ConfigException(spec.path() + ".params.cost", "unknown value '" + cost
                    + "'; valid: requests, input_tokens");
        }
        return new TokenBucket(capacity, refillPerSec, "true".equals(perTenant.toString()), "input_tokens".equals(cost));
    }

    @Override
    public AdmissionDecision decide(Request r, long nowUs) {
        double[] b = buckets.computeIfAbsent(perTenant ? r.tags().tenantId() : "", k -> new double[] {capacity, nowUs});
        b[0] = Math.min(capacity, b[0] + (nowUs - b[1]) * refillPerUs);
        b[1] = nowUs;
        double cost = costByTokens ? r.inputTokens() : 1;
        if (b[0] + 1e-9 < cost) {
            return EMPTY;
        }
        b[0] -= cost;
        return AdmissionDecision.ADMIT;
    }
}
