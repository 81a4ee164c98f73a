package io.servesim.policy.code;

import io.servesim.cluster.AdmissionDecision;
import io.servesim.engine.Request;
import io.servesim.policy.api.Admission;
import io.servesim.policy.api.AdmissionPolicy;

/** {@code admission: code}: an {@link AdmissionPolicy} given as source. */
final class CodeAdmission implements io.servesim.cluster.AdmissionPolicy {
    private final Loaded<AdmissionPolicy> code;
    private final RequestAdapter request = new RequestAdapter();

    CodeAdmission(Loaded<AdmissionPolicy> code) {
        this.code = code;
    }

    @Override
    public AdmissionDecision decide(Request r, long nowUs) {
        Admission a;
        code.budget().enter();
        try {
            a = code.policy().decide(request.of(r), nowUs);
        } catch (Throwable t) {
            throw code.budget().failed("decide", t, code.file());
        }
        code.budget().exit("decide");
        if (a == null) {
            throw code.broke("decide returned null; return Admission.admit(), reject(reason) or delay(us, reason)");
        }
        return switch (a.kind()) {
            case ADMIT -> AdmissionDecision.ADMIT;
            case REJECT -> AdmissionDecision.reject(a.reason());
            case DELAY -> AdmissionDecision.delay(a.delayUs(), a.reason());
        };
    }

    @Override
    public void onLeft(Request r, long nowUs) {
        code.budget().enter();
        try {
            code.policy().onLeft(request.of(r), nowUs);
        } catch (Throwable t) {
            throw code.budget().failed("onLeft", t, code.file());
        }
        code.budget().exit("onLeft");
    }
}
