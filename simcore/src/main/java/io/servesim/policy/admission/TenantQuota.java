package io.servesim.policy.admission;

import io.servesim.cluster.AdmissionDecision;
import io.servesim.cluster.AdmissionPolicy;
import io.servesim.engine.Request;
import it.unimi.dsi.fastutil.objects.Object2IntOpenHashMap;
import java.util.Map;

/**
 * Per-tenant concurrency quota: a tenant may have at most {@code max_in_flight} admitted requests
 * that have not left (per-tenant overrides in {@code tenant_limits}); beyond that, requests are
 * rejected (as API gateways enforce concurrent-request limits).
 */
final class TenantQuota implements AdmissionPolicy {
    private static final AdmissionDecision OVER = AdmissionDecision.reject("tenant-quota: tenant at max_in_flight");

    private final int defaultLimit;
    private final Map<String, Double> limits;
    private final Object2IntOpenHashMap<String> inFlight = new Object2IntOpenHashMap<>();

    TenantQuota(int defaultLimit, Map<String, Double> limits) {
        this.defaultLimit = defaultLimit;
        this.limits = limits;
    }

    @Override
    public AdmissionDecision decide(Request r, long nowUs) {
        String tenant = r.tags().tenantId();
        int limit = limits.containsKey(tenant) ? limits.get(tenant).intValue() : defaultLimit;
        int current = inFlight.getInt(tenant);
        if (current >= limit) {
            return OVER;
        }
        inFlight.put(tenant, current + 1);
        return AdmissionDecision.ADMIT;
    }

    @Override
    public void onLeft(Request r, long nowUs) {
        inFlight.addTo(r.tags().tenantId(), -1);
    }
}
