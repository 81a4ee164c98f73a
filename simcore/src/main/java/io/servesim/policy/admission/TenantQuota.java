package io.servesim.policy.admission;

import io.servesim.cluster.AdmissionDecision;
import io.servesim.cluster.AdmissionPolicy;
import io.servesim.config.ConfigException;
import io.servesim.engine.Request;
import io.servesim.policy.NamesWorkloadKeys;
import io.servesim.policy.PolicyContext;
import io.servesim.policy.PolicySpec;
import it.unimi.dsi.fastutil.objects.Object2IntOpenHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code tenant-quota {max_in_flight, tenant_limits}}: per-tenant concurrency quota: a tenant may have at most {@code max_in_flight} admitted requests
 * that have not left (per-tenant overrides in {@code tenant_limits}); beyond that, requests are
 * rejected (as API gateways enforce concurrent-request limits).
 */
final class TenantQuota implements AdmissionPolicy, NamesWorkloadKeys {
    private static final AdmissionDecision OVER = AdmissionDecision.reject("tenant-quota: tenant at max_in_flight");

    private final int defaultLimit;
    private final Map<String, Double> limits;
    private final Object2IntOpenHashMap<String> inFlight = new Object2IntOpenHashMap<>();

    private TenantQuota(int defaultLimit, Map<String, Double> limits) {
        this.defaultLimit = defaultLimit;
        this.limits = limits;
    }

    static AdmissionPolicy create(PolicySpec spec, PolicyContext ctx) {
        spec.requireOnly(Set.of("max_in_flight", "tenant_limits"));
        int limit = wholeNumber(spec.path() + ".params.max_in_flight", spec.number("max_in_flight", Double.NaN), 1);
        Map<String, Double> limits = spec.numberMap("tenant_limits", Map.of());
        limits.forEach((tenant, v) -> wholeNumber(spec.path() + ".params.tenant_limits." + tenant, v, 0));
        return new TenantQuota(limit, limits);
    }

    /** A request count: an integer >= {@code min} that an int holds (a fraction is not silently truncated). */
    private static int wholeNumber(String path, double v, int min) {
        if (Double.isNaN(v)) {
            throw new ConfigException(path, "required, an integer >= " + min);
        }
        if (!(v >= min && v <= Integer.MAX_VALUE && v == Math.rint(v))) {
            throw new ConfigException(path, "must be an integer >= " + min + " (at most " + Integer.MAX_VALUE + "), got "
                    + (v == Math.rint(v) && Math.abs(v) < 1e15 ? Long.toString((long) v) : Double.toString(v)));
        }
        return (int) v;
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
        return limits.isEmpty() ? List.of() : List.of(new KeyedParam("tenant_limits", true, limits.keySet()));
    }

    @Override
    public void onLeft(Request r, long nowUs) {
        inFlight.addTo(r.tags().tenantId(), -1);
    }
}
