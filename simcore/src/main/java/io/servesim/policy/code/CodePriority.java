package io.servesim.policy.code;

import io.servesim.engine.Request;
import io.servesim.policy.api.PriorityPolicy;

/** {@code priority: code}: a {@link PriorityPolicy} given as source; a score or key that is not a number fails the run. */
final class CodePriority implements io.servesim.cluster.PriorityPolicy {
    private final Loaded<PriorityPolicy> code;
    private final RequestAdapter request = new RequestAdapter();

    CodePriority(Loaded<PriorityPolicy> code) {
        this.code = code;
    }

    @Override
    public double scoreAt(Request r, long nowUs) {
        double s;
        code.budget().enter();
        try {
            s = code.policy().score(request.of(r), nowUs);
        } catch (Throwable t) {
            throw code.budget().failed("score", t, code.file());
        }
        code.budget().exit("score");
        return finite("score", s);
    }

    @Override
    public double rankKey(Request r) {
        double k;
        code.budget().enter();
        try {
            k = code.policy().rankKey(request.of(r));
        } catch (Throwable t) {
            throw code.budget().failed("rankKey", t, code.file());
        }
        code.budget().exit("rankKey");
        return finite("rankKey", k);
    }

    /** A NaN would break the wait queue's order, an infinity every comparison with its kind. */
    private double finite(String call, double v) {
        if (!Double.isFinite(v)) {
            throw code.broke(call + " returned " + v + ", not a finite number");
        }
        return v;
    }
}
