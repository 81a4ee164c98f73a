package io.servesim.policy.admission;

import io.servesim.cluster.AdmissionDecision;
import io.servesim.cluster.AdmissionPolicy;
import io.servesim.engine.Request;
import io.servesim.policy.PolicyContext;
import io.servesim.policy.PolicySpec;

/** {@code always-admit}: every request enters (BLIS {@code sim/admission.go}'s default). No params. */
final class AlwaysAdmit implements AdmissionPolicy {
    private AlwaysAdmit() {
    }

    static AdmissionPolicy create(PolicySpec spec, PolicyContext ctx) {
        return new AlwaysAdmit();
    }

    @Override
    public AdmissionDecision decide(Request r, long nowUs) {
        return AdmissionDecision.ADMIT;
    }
}
