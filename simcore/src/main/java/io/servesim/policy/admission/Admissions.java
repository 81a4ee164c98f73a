package io.servesim.policy.admission;

import io.servesim.cluster.AdmissionPolicy;
import io.servesim.policy.Registry;
import io.servesim.policy.code.CodePolicies;

/**
 * Admission templates, one class each, in the order help and error messages list them
 * ({@link Registry} says how to add one).
 */
public final class Admissions {
    public static final Registry<AdmissionPolicy> REGISTRY = new Registry<AdmissionPolicy>("admission")
            .register("always-admit", AlwaysAdmit::create)
            .register("token-bucket", TokenBucket::create, TokenBucket.PARAMS)
            .register("rate-limit", RateLimit::create, RateLimit.PARAMS)
            .register("tenant-quota", TenantQuota::create, TenantQuota.PARAMS)
            .register("reject-all", RejectAll::create)
            .register(CodePolicies.NAME, CodePolicies::admission, CodePolicies.ADMISSION.all());

    private Admissions() {
    }
}
