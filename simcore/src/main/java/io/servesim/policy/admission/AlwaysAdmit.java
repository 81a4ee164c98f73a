package io.servesim.policy.admission;

import io.servesim.cluster.AdmissionDecision;
import io.servesim.cluster.AdmissionPolicy;
import io.servesim.engine.Request;
import io.servesim.policy.PolicyContext;
import io.servesim.policy.PolicySpec;
import java.util.Set;

/** {@code always-admit}: every request enters (BLIS {@code sim/admission.go}'s default). No params. */
final class AlwaysAdmit implements AdmissionPolicy {
    private AlwaysAdmit() {
    }

    static AdmissionPolicy create(PolicySpec spec, PolicyContext ctx) {
        spec.requireOnly(Set.of());
        return new AlwaysAdmit();
    }

    @Override
    public AdmissionDecision decide(Request r, long nowUs) {
        return AdmissionDecision.ADMIT;
    }
}
