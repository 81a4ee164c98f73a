package io.servesim.policy.admission;

import io.servesim.cluster.AdmissionDecision;
import io.servesim.cluster.AdmissionPolicy;
import io.servesim.engine.Request;
import io.servesim.policy.PolicyContext;
import io.servesim.policy.PolicySpec;

/** {@code reject-all}: every request is rejected, a pathological template (BLIS's). No params. */
final class RejectAll implements AdmissionPolicy {
    private static final AdmissionDecision REJECT = AdmissionDecision.reject("reject-all");

    private RejectAll() {
    }

    static AdmissionPolicy create(PolicySpec spec, PolicyContext ctx) {
        return new RejectAll();
    }

    @Override
    public AdmissionDecision decide(Request r, long nowUs) {
        return REJECT;
    }
}
