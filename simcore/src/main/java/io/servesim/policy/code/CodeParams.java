package io.servesim.policy.code;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.servesim.config.ConfigException;
import io.servesim.config.Setting;
import io.servesim.config.ValueType;
import io.servesim.policy.PolicySpec;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The params of one kind's {@code code} policy, declared at {@code policies.<kind>[code].params.<key>} as every
 * template declares its own: {@code source}, the Java file (relative to the file that names it, as
 * {@code workload.trace.path} is), and {@code call_budget}, the time one call may take.
 *
 * @param iface      the kind's interface of {@code io.servesim.policy.api} the source implements
 * @param source     {@code source}
 * @param callBudget {@code call_budget}, in microseconds
 * @param <T>        the interface
 */
public record CodeParams<T>(Class<T> iface, Setting<String> source, Setting<Long> callBudget) {
    /** The key of {@code source}, which bundles and bound specs rewrite. */
    static final String SOURCE = "source";
    /** 1 s: a thousand times what a decision of the built-in policies takes at its slowest. */
    private static final long DEFAULT_CALL_BUDGET_US = 1_000_000;
    /** 10 ms to 10 min: the watchdog samples every 10 ms, so a shorter budget could not be told apart. */
    private static final ValueType.Duration CALL_BUDGET = ValueType.duration(10_000, 600_000_000).because("the"
            + " watchdog samples every 10 ms, so a shorter budget could not be told apart; a call over 10 minutes is no"
            + " decision");

    /** The code policy's params of the registry of kind {@code kind} (its name in errors, e.g. {@code scheduler}). */
    static <T> CodeParams<T> of(String kind, Class<T> iface) {
        String at = "policies." + kind + "[" + CodePolicies.NAME + "].params.";
        return new CodeParams<>(iface,
                Setting.derived(at + SOURCE, ValueType.text(), "required", "The policy's Java source file, relative to"
                        + " the file that names it (the config, a policy bundle, a sweep file): one public class"
                        + " implementing " + iface.getName() + ", compiled when the config loads."),
                Setting.of(at + "call_budget", CALL_BUDGET, DEFAULT_CALL_BUDGET_US, "How long one call of the policy"
                        + " may take; a call over it fails the run, naming the file."));
    }

    /** Every param, in the order the settings catalog lists them. */
    public List<Setting<?>> all() {
        return List.of(source, callBudget);
    }

    /** {@code source} of {@code spec}, required, a {@code .java} path resolved against {@code baseDir}. */
    Path sourceFile(PolicySpec spec, Path baseDir) {
        String s = spec.get(source);
        String at = spec.path() + ".params." + SOURCE;
        if (s == null || s.isBlank()) {
            throw new ConfigException(at, "required: the Java source file of the policy (relative to the file that"
                    + " names it): one public class implementing " + iface.getName());
        }
        if (!s.endsWith(".java")) {
            throw new ConfigException(at, "must be the path of a .java file, got '" + s + "'");
        }
        return baseDir.resolve(s).toAbsolutePath().normalize();
    }

    /** {@code call_budget} of {@code spec} in nanoseconds. */
    long callBudgetNanos(PolicySpec spec) {
        return spec.get(callBudget) * 1_000;
    }

    /**
     * {@code policy} (a policy's config node), when it is a code policy with a relative {@code source}, as a copy whose
     * source, relative to {@code from}, is written relative to {@code to} (absolute when {@code to} is null).
     */
    static JsonNode rebased(JsonNode policy, Path from, Path to) {
        JsonNode src = policy.path("params").path(SOURCE);
        if (!CodePolicies.NAME.equals(policy.path("name").asText()) || !src.isTextual()
                || Path.of(src.asText()).isAbsolute()) {
            return policy;
        }
        Path file = from.resolve(src.asText()).toAbsolutePath().normalize();
        String written = to == null ? file.toString() : to.toAbsolutePath().normalize().relativize(file).toString();
        ObjectNode copy = ((ObjectNode) policy).deepCopy();
        ((ObjectNode) copy.get("params")).put(SOURCE, written);
        return copy;
    }

    /**
     * {@code spec} with a relative {@code source} resolved against {@code baseDir}, so the policy can be built again
     * later from the spec alone (a run, each cell of a sweep); any other spec as it is.
     */
    static PolicySpec resolved(PolicySpec spec, Path baseDir) {
        if (!(spec.params().get(SOURCE) instanceof String s) || !s.endsWith(".java") || Path.of(s).isAbsolute()) {
            return spec; // what sourceFile() refuses is refused as written
        }
        Map<String, Object> params = new LinkedHashMap<>(spec.params());
        params.put(SOURCE, baseDir.resolve(s).toAbsolutePath().normalize().toString());
        return new PolicySpec(spec.name(), params, spec.path());
    }
}
