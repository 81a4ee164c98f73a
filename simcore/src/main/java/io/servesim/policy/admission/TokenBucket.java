package io.servesim.policy.admission;

import io.servesim.cluster.AdmissionDecision;
import io.servesim.cluster.AdmissionPolicy;
import io.servesim.config.Setting;
import io.servesim.config.ValueType;
import io.servesim.engine.Request;
import io.servesim.policy.PolicyContext;
import io.servesim.policy.PolicySpec;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code token-bucket {capacity, refill_per_s, per_tenant, cost}}: token-bucket admission: a bucket of {@code capacity} tokens refilled continuously at
 * {@code refill_per_s}; a request costs one token ({@code cost: requests}) or its prompt length
 * ({@code cost: input_tokens}) and is rejected when the bucket holds less. With
 * {@code per_tenant: true} every tenant has its own bucket. Buckets start full.
 */
final class TokenBucket implements AdmissionPolicy {
    private static final String AT = "policies.admission[token-bucket].params.";
    private static final String BEYOND = "a bucket of over 10^9 requests or prompt tokens never empties in a run";
    static final Setting<Double> CAPACITY = Setting.required(AT + "capacity",
            ValueType.real(0, 1e9).above().in("requests or prompt tokens (cost)", BEYOND),
            "Tokens the bucket holds (it starts full).");
    static final Setting<Double> REFILL_PER_S = Setting.required(AT + "refill_per_s",
            ValueType.real(0, 1e9).in("per second", BEYOND), "Tokens added per second, continuously.");
    static final Setting<Boolean> PER_TENANT = Setting.of(AT + "per_tenant", ValueType.bool(), false,
            "One bucket per tenant instead of one for the cluster.");
    static final Setting<String> COST = Setting.of(AT + "cost", ValueType.choice(List.of("requests", "input_tokens")),
            "requests", "What a request costs: one token (requests) or its prompt length (input_tokens).");
    static final List<Setting<?>> PARAMS = List.of(CAPACITY, REFILL_PER_S, PER_TENANT, COST);

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
        return new TokenBucket(spec.require(CAPACITY), spec.require(REFILL_PER_S), spec.get(PER_TENANT),
                "input_tokens".equals(spec.get(COST)));
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
