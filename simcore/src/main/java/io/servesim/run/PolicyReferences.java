package io.servesim.run;

import io.servesim.config.ConfigNode;
import io.servesim.engine.RequestTags;
import io.servesim.policy.NamesWorkloadKeys;
import io.servesim.policy.PolicyBinder;
import io.servesim.workload.ClientSpec;
import io.servesim.workload.GeneratorSpec;
import io.servesim.workload.WorkloadSpec;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * Policy parameters that name tenants or SLO classes (those a policy declares through
 * {@link NamesWorkloadKeys}, e.g. {@code tenant-quota}'s {@code tenant_limits}) must name ones the
 * workload has: a misspelt name would otherwise match no request and the policy would silently
 * treat everyone alike. A trace replay's requests all carry the default tenant and class
 * ({@link RequestTags#DEFAULT}).
 */
final class PolicyReferences {
    private PolicyReferences() {
    }

    /** Records a problem on {@code root} for every key of those maps the workload does not have. */
    static void check(ConfigNode root, List<PolicyBinder.Bound<?>> policies, WorkloadSpec workload) {
        Set<String> tenants = new TreeSet<>();
        Set<String> classes = new TreeSet<>();
        if (workload instanceof GeneratorSpec g) {
            for (ClientSpec c : g.clients()) {
                tenants.add(c.tenantId());
                classes.add(c.sloClass());
            }
        } else {
            tenants.add(RequestTags.DEFAULT.tenantId());
            classes.add(RequestTags.DEFAULT.sloClass());
        }
        for (PolicyBinder.Bound<?> bound : policies) {
            if (bound.policy().orElse(null) instanceof NamesWorkloadKeys named) {
                for (NamesWorkloadKeys.KeyedParam param : named.keyedParams()) {
                    check(root, bound.spec().path() + ".params." + param.param(), param, param.byTenant() ? tenants : classes);
                }
            }
        }
    }

    private static void check(ConfigNode root, String path, NamesWorkloadKeys.KeyedParam param, Set<String> known) {
        String what = param.byTenant() ? "tenant" : "SLO class";
        for (String key : new TreeSet<>(param.keys())) {
            if (!known.contains(key)) {
                root.problem(path + "." + key, "no client has " + what + " '" + key + "'; "
                        + (param.byTenant() ? "tenants" : "classes") + ": " + String.join(", ", known));
            }
        }
    }
}
