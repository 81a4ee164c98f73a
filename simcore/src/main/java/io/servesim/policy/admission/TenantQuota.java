package io.servesim.policy.admission;

import io.servesim.cluster.AdmissionDecision;
import io.servesim.cluster.AdmissionPolicy;
import io.servesim.config.Setting;
import io.servesim.config.ValueType;
import io.servesim.engine.Request;
import io.servesim.policy.NamesWorkloadKeys;
import io.servesim.policy.PolicyContext;
import io.servesim.policy.PolicySpec;
import it.unimi.dsi.fastutil.objects.Object2IntOpenHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code tenant-quota {max_in_flight, tenant_limits}}: per-tenant concurrency quota: a tenant may have at most {@code max_in_flight} admitted requests
 * that have not left (per-tenant overrides in {@code tenant_limits}); beyond that, requests are
 * rejected (as API gateways enforce concurrent-request limits).
 */
final class TenantQuota implements AdmissionPolicy, NamesWorkloadKeys {
    private static final String AT = "policies.admission[tenant-quota].params.";
    private static final ValueType.Int REQUESTS = ValueType.integer(0, 1_000_000).in("requests",
            "a tenant's concurrency beyond 10^6 requests exceeds what any fleet holds in flight");
    static final Setting<Long> MAX_IN_FLIGHT = Setting.required(AT + "max_in_flight",
            ValueType.integer(1, 1_000_000).in("requests", REQUESTS.reason()),
            "Admitted requests a tenant may have that have not left.");
    static final Setting<Map<String, Long>> TENANT_LIMITS = Setting.of(AT + "tenant_limits", ValueType.mapping(REQUESTS),
            Map.of(), "Per-tenant overrides of max_in_flight (tenant: limit; 0 admits none of it).");
    static final List<Setting<?>> PARAMS = List.of(MAX_IN_FLIGHT, TENANT_LIMITS);

    private static final AdmissionDecision OVER = AdmissionDecision.reject("tenant-quota: tenant at max_in_flight");

    private final int defaultLimit;
    private final Map<String, Long> limits;
    private final Object2IntOpenHashMap<String> inFlight = new Object2IntOpenHashMap<>();

    private TenantQuota(int defaultLimit, Map<String, Long> limits) {
        this.defaultLimit = defaultLimit;
        this.limits = limits;
    }

    static AdmissionPolicy create(PolicySpec spec, PolicyContext ctx) {
        return new TenantQuota(Math.toIntExact(spec.require(MAX_IN_FLIGHT)), spec.get(TENANT_LIMITS));
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
    public List<KeyedParam> keyedParams() {
        return limits.isEmpty() ? List.of() : List.of(new KeyedParam(TENANT_LIMITS.key(), true, limits.keySet()));
    }

    @Override
    public void onLeft(Request r, long nowUs) {
        inFlight.addTo(r.tags().tenantId(), -1);
    }
}
