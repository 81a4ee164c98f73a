package io.servesim.policy;

import io.servesim.policy.code.CodePolicies;
import io.servesim.run.PolicyKind;
import java.util.Map;

/**
 * A valid spec for every registered policy: its name with the params it requires (none for most). A policy with
 * required params must be listed here, or {@link PolicyContractTest} fails naming it. The {@code code} policy of each
 * kind is its example in {@code sweeps/policies/code/}, so the examples run through every contract test.
 */
final class PolicySamples {
    private static final Map<String, Map<String, Object>> REQUIRED_PARAMS = Map.of(
            "token-bucket", Map.of("capacity", 3.0, "refill_per_s", 2.0),
            "rate-limit", Map.of("max_rps", 5.0),
            "tenant-quota", Map.of("max_in_flight", 2.0));

    /** Each kind's example code policy (relative to simcore/, where the tests run). */
    private static final Map<String, String> CODE_EXAMPLES = Map.of(
            "admission", "TenantInFlightCap.java",
            "priority", "SloClassThenAge.java",
            "routing", "PrefixAwareLeastLoad.java",
            "scheduler", "ShortestPromptFirst.java",
            "autoscale", "QueueTarget.java");

    private PolicySamples() {
    }

    static PolicySpec of(PolicyKind<?> kind, String name) {
        if (name.equals(CodePolicies.NAME)) {
            return new PolicySpec(name, Map.of("source", "../sweeps/policies/code/" + CODE_EXAMPLES.get(kind.name())),
                    kind.configPath());
        }
        return new PolicySpec(name, REQUIRED_PARAMS.getOrDefault(name, Map.of()), kind.configPath());
    }
}
