package io.servesim.policy.admission;

import io.servesim.cluster.AdmissionDecision;
import io.servesim.cluster.AdmissionPolicy;
import io.servesim.engine.Request;
import java.util.HashMap;
import java.util.Map;

/**
 * Token-bucket admission: a bucket of {@code capacity} tokens refilled continuously at
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

    TokenBucket(double capacity, double refillPerSec, boolean perTenant, boolean costByTokens) {
        this.capacity = capacity;
        this.refillPerUs = refillPerSec / 1e6;
        this.perTenant = perTenant;
        this.costByTokens = costByTokens;
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
