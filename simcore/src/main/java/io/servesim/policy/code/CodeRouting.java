package io.servesim.policy.code;

import io.servesim.cluster.ClusterView;
import io.servesim.cluster.Signal;
import io.servesim.engine.Request;
import io.servesim.policy.api.RoutingPolicy;
import java.util.Set;

/**
 * {@code routing: code}: a {@link RoutingPolicy} given as source. It reads the signals whose {@code Instances}
 * methods its source calls; it scores no instances, so its decision records have no candidates or regret.
 */
final class CodeRouting implements io.servesim.cluster.RoutingPolicy {
    private final Loaded<RoutingPolicy> code;
    private final Set<Signal> signals;
    private final RequestAdapter request = new RequestAdapter();
    private final InstancesAdapter instances = new InstancesAdapter();

    CodeRouting(Loaded<RoutingPolicy> code) {
        this.code = code;
        this.signals = InstancesAdapter.signalsOf(code.code().calls(io.servesim.policy.api.Instances.class));
    }

    @Override
    public int route(Request r, ClusterView view, long nowUs) {
        int chosen;
        code.budget().enter();
        try {
            chosen = code.policy().route(request.of(r), instances.of(view, r), nowUs);
        } catch (Throwable t) {
            throw code.budget().failed("route", t, code.file());
        }
        code.budget().exit("route");
        if (chosen < 0 || chosen >= view.instances()) {
            throw code.broke("route returned " + chosen + ", not a position in 0.." + (view.instances() - 1));
        }
        return chosen;
    }

    @Override
    public Set<Signal> signalsRead() {
        return signals;
    }

    @Override
    public String unscoredBecause() {
        return "returns its choice, not scores (a code policy, " + code.file() + "): it has no score regret";
    }
}
