package io.servesim.policy.admission;

import io.servesim.cluster.AdmissionDecision;
import io.servesim.cluster.AdmissionPolicy;
import io.servesim.config.ConfigException;
import io.servesim.policy.PolicySpec;
import io.servesim.policy.Registry;
import java.util.Map;
import java.util.Set;

/**
 * Admission templates: {@code always-admit}; {@code token-bucket {capacity, refill_per_s,
 * per_tenant, cost}}; {@code rate-limit {max_rps, max_delay_us}} (pacing with DELAY);
 * {@code tenant-quota {max_in_flight, tenant_limits}}; {@code reject-all} (pathological).
 */
public final class Admissions {
    private static final AdmissionDecision REJECT_ALL = AdmissionDecision.reject("reject-all");

    public static final Registry<AdmissionPolicy> REGISTRY = new Registry<AdmissionPolicy>("admission")
            .register("always-admit", (spec, ctx) -> {
                spec.requireOnly(Set.of());
                return (r, now) -> AdmissionDecision.ADMIT;
            })
            .register("token-bucket", (spec, ctx) -> tokenBucket(spec))
            .register("rate-limit", (spec, ctx) -> {
                spec.requireOnly(Set.of("max_rps", "max_delay_us"));
                double rps = positive(spec, "max_rps", Double.NaN);
                double maxDelay = spec.number("max_delay_us", Long.MAX_VALUE);
                if (maxDelay < 0) {
                    throw new ConfigException(spec.path() + ".params.max_delay_us", "must be >= 0");
                }
                if (maxDelay != Math.rint(maxDelay)) {
                    throw new ConfigException(spec.path() + ".params.max_delay_us", "must be a whole number of microseconds, got "
                            + maxDelay);
                }
                return new RateLimit(rps, (long) Math.min(Long.MAX_VALUE, maxDelay));
            })
            .register("tenant-quota", (spec, ctx) -> {
                spec.requireOnly(Set.of("max_in_flight", "tenant_limits"));
                int limit = wholeNumber(spec.path() + ".params.max_in_flight", spec.number("max_in_flight", Double.NaN), 1);
                Map<String, Double> limits = spec.numberMap("tenant_limits", Map.of());
                limits.forEach((tenant, v) -> wholeNumber(spec.path() + ".params.tenant_limits." + tenant, v, 0));
                return new TenantQuota(limit, limits);
            })
            .register("reject-all", (spec, ctx) -> {
                spec.requireOnly(Set.of());
                return (r, now) -> REJECT_ALL;
            });

    private Admissions() {
    }

    private static AdmissionPolicy tokenBucket(PolicySpec spec) {
        spec.requireOnly(Set.of("capacity", "refill_per_s", "per_tenant", "cost"));
        double capacity = positive(spec, "capacity", Double.NaN);
        double refill = spec.number("refill_per_s", Double.NaN);
        if (!(refill >= 0)) {
            throw new ConfigException(spec.path() + ".params.refill_per_s", "required, >= 0 (tokens per second)");
        }
        Object perTenant = spec.params().getOrDefault("per_tenant", "false");
        if (!"true".equals(perTenant.toString()) && !"false".equals(perTenant.toString())) {
            throw new ConfigException(spec.path() + ".params.per_tenant", "must be true or false");
        }
        Object cost = spec.params().getOrDefault("cost", "requests");
        if (!"requests".equals(cost) && !"input_tokens".equals(cost)) {
            throw new ConfigException(spec.path() + ".params.cost", "unknown value '" + cost + "'; valid: requests, input_tokens");
        }
        return new TokenBucket(capacity, refill, "true".equals(perTenant.toString()), "input_tokens".equals(cost));
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

    private static double positive(PolicySpec spec, String key, double dflt) {
        double v = spec.number(key, dflt);
        if (!(v > 0)) {
            throw new ConfigException(spec.path() + ".params." + key, "required, must be > 0");
        }
        return v;
    }
}
