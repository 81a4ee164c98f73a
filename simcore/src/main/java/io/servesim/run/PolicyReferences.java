package io.servesim.run;

import io.servesim.config.ConfigNode;
import io.servesim.engine.RequestTags;
import io.servesim.policy.PolicySpec;
import io.servesim.workload.ClientSpec;
import io.servesim.workload.GeneratorSpec;
import io.servesim.workload.WorkloadSpec;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Policy parameters that name tenants or SLO classes ({@code tenant-quota}'s {@code tenant_limits},
 * {@code slo-based}'s and {@code inverted-slo}'s {@code class_scores}, {@code tenant-priority}'s
 * {@code tenant_scores}) must name ones the workload has: a misspelt name would otherwise match no
 * request and the policy would silently treat everyone alike. A trace replay's requests all carry
 * the default tenant and class ({@link RequestTags#DEFAULT}).
 */
final class PolicyReferences {
    /** A map-valued parameter of a policy template whose keys are tenants ({@code byTenant}) or SLO classes. */
    private record MapParam(String template, String param, boolean byTenant) {
    }

    private static final List<MapParam> ADMISSION = List.of(new MapParam("tenant-quota", "tenant_limits", true));
    private static final List<MapParam> PRIORITY = List.of(
            new MapParam("slo-based", "class_scores", false),
            new MapParam("inverted-slo", "class_scores", false),
            new MapParam("tenant-priority", "tenant_scores", true));

    private PolicyReferences() {
    }

    /** Records a problem on {@code root} for every key of those maps the workload does not have. */
    static void check(ConfigNode root, PolicyBundle policies, WorkloadSpec workload) {
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
        check(root, policies.admission(), ADMISSION, tenants, classes);
        check(root, policies.priority(), PRIORITY, tenants, classes);
    }

    private static void check(ConfigNode root, PolicySpec spec, List<MapParam> params, Set<String> tenants,
                              Set<String> classes) {
        for (MapParam m : params) {
            if (!m.template().equals(spec.name()) || !(spec.params().get(m.param()) instanceof Map<?, ?> map)) {
                continue;
            }
            Set<String> known = m.byTenant() ? tenants : classes;
            String what = m.byTenant() ? "tenant" : "SLO class";
            for (Object key : new TreeSet<>(map.keySet().stream().map(String::valueOf).toList())) {
                if (!known.contains(key)) {
                    root.problem(spec.path() + ".params." + m.param() + "." + key, "no client has " + what + " '" + key
                            + "'; " + (m.byTenant() ? "tenants" : "classes") + ": " + String.join(", ", known));
                }
            }
        }
    }
}
