package io.servesim.policy;

import io.servesim.run.PolicyKind;
import java.util.Map;

/**
 * A valid spec for every registered policy: its name with the params it requires (none for most).
 * A policy with required params must be listed here, or {@link PolicyContractTest} fails naming it.
 */
final class PolicySamples {
    private static final Map<String, Map<String, Object>> REQUIRED_PARAMS = Map.of(
            "token-bucket", Map.of("capacity", 3.0, "refill_per_s", 2.0),
            "rate-limit", Map.of("max_rps", 5.0),
            "tenant-quota", Map.of("max_in_flight", 2.0));

    private PolicySamples() {
    }

    static PolicySpec of(PolicyKind<?> kind, String name) {
        return new PolicySpec(name, REQUIRED_PARAMS.getOrDefault(name, Map.of()), kind.configPath());
    }
}
