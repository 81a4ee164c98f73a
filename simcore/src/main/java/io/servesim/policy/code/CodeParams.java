package io.servesim.policy.code;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.servesim.config.ConfigException;
import io.servesim.config.Durations;
import io.servesim.policy.PolicySpec;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;

/**
 * The params of the {@code code} policy of every kind, declared here once: {@code source}, the Java file (relative to
 * the file that names it, as {@code workload.trace.path} is), and {@code call_budget}, the time one call may take.
 */
final class CodeParams {
    /** The Java source file of the policy. */
    static final String SOURCE = "source";
    /** How long one call of the policy may run (a duration). */
    static final String CALL_BUDGET = "call_budget";
    static final Set<String> ALL = Set.of(SOURCE, CALL_BUDGET);

    /** 1 s: a thousand times what a decision of the built-in policies takes at its slowest. */
    static final long DEFAULT_CALL_BUDGET_US = 1_000_000;
    /** The watchdog samples every 10 ms, so a shorter budget could not be told apart. */
    static final long MIN_CALL_BUDGET_US = 10_000;
    /** Beyond 10 minutes a single decision is no budget at all. */
    static final long MAX_CALL_BUDGET_US = 600_000_000;

    private CodeParams() {
    }

    /** {@code source}, required, a path resolved against {@code baseDir}, of a class implementing {@code iface}. */
    static Path source(PolicySpec spec, Path baseDir, Class<?> iface) {
        Object v = spec.params().get(SOURCE);
        String at = spec.path() + ".params." + SOURCE;
        if (!(v instanceof String s) || s.isBlank()) {
            throw new ConfigException(at, v == null ? "required: the Java source file of the policy (relative to the"
                    + " file that names it): one public class implementing " + iface.getName()
                    : "must be the path of a .java file, got " + v);
        }
        if (!s.endsWith(".java")) {
            throw new ConfigException(at, "must be the path of a .java file, got '" + s + "'");
        }
        return baseDir.resolve(s).toAbsolutePath().normalize();
    }

    /** {@code call_budget} in nanoseconds, within its range. */
    static long callBudgetNanos(PolicySpec spec) {
        long us = spec.durationUs(CALL_BUDGET, DEFAULT_CALL_BUDGET_US);
        if (us < MIN_CALL_BUDGET_US || us > MAX_CALL_BUDGET_US) {
            throw new ConfigException(spec.path() + ".params." + CALL_BUDGET, "must be in [10ms, 10m] (the watchdog"
                    + " samples every 10 ms; a longer call is no decision), got " + Durations.render(us));
        }
        return us * 1_000;
    }

    /**
     * {@code policy} (a policy's config node), when it is a code policy with a relative {@code source}, as a copy whose
     * source, relative to {@code from}, is written relative to {@code to} (absolute when {@code to} is null).
     */
    static JsonNode rebased(JsonNode policy, Path from,
                                                          Path to) {
        JsonNode params = policy.path("params");
        JsonNode source = params.path(SOURCE);
        if (!CodePolicies.NAME.equals(policy.path("name").asText()) || !source.isTextual()
                || Path.of(source.asText()).isAbsolute()) {
            return policy;
        }
        Path file = from.resolve(source.asText()).toAbsolutePath().normalize();
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
            return spec; // what source() refuses is refused as written
        }
        Map<String, Object> params = new java.util.LinkedHashMap<>(spec.params());
        params.put(SOURCE, baseDir.resolve(s).toAbsolutePath().normalize().toString());
        return new PolicySpec(spec.name(), params, spec.path());
    }
}
