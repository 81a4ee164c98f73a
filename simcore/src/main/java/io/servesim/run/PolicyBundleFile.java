package io.servesim.run;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.servesim.config.ConfigException;
import io.servesim.config.StrictJson;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A PolicyBundle file ({@code --policy-config}, a sweep's {@code policy_configs} axis, a search
 * candidate): one YAML mapping with any of the policy kinds ({@link PolicyKind#ALL}: {@code admission},
 * {@code priority}, {@code routing}, {@code scheduler}, {@code autoscale}), each a template name or {@code {name, params}}:
 * policy parameters only, no code. Its entries replace a run config's {@code policies.*}; unknown kinds
 * fail naming the file, unknown or out-of-range params fail when the config is bound, naming their path.
 */
public final class PolicyBundleFile {
    private static final List<String> KEYS = PolicyKind.ALL.stream().map(PolicyKind::name).toList();

    private PolicyBundleFile() {
    }

    /** The file's entries, kind -> its node, in file order; throws {@link ConfigException} for unknown kinds. */
    public static Map<String, JsonNode> read(Path file) {
        ObjectNode bundle = StrictJson.readMapping(file);
        List<ConfigException.Problem> problems = new ArrayList<>();
        Map<String, JsonNode> entries = new LinkedHashMap<>();
        bundle.fields().forEachRemaining(e -> {
            if (KEYS.contains(e.getKey())) {
                entries.put(e.getKey(), e.getValue());
            } else {
                problems.add(new ConfigException.Problem(file + ": " + e.getKey(),
                        "unknown policy kind; valid: " + String.join(", ", KEYS)));
            }
        });
        if (!problems.isEmpty()) {
            throw new ConfigException(problems);
        }
        return entries;
    }

    /**
     * Replaces {@code config}'s {@code policies.*} with the file's entries; an {@code autoscale} entry
     * replaces the config's autoscale policy where it is written ({@code autoscaling.policy} or
     * {@code policies.autoscale}, {@link PolicyKind#configPathIn}).
     */
    public static void apply(Path file, ObjectNode config) {
        Map<String, JsonNode> entries = read(file);
        ObjectNode policies = config.has("policies") && config.get("policies").isObject()
                ? (ObjectNode) config.get("policies") : config.putObject("policies");
        PolicyKind<?> autoscale = PolicyKind.AUTOSCALE;
        boolean autoscaleElsewhere = !autoscale.configPathIn(config).equals(autoscale.configPath());
        entries.forEach((kind, node) -> {
            if (kind.equals(autoscale.name()) && autoscaleElsewhere) {
                ((ObjectNode) config.get("autoscaling")).set("policy", node);
            } else {
                policies.set(kind, node);
            }
        });
    }
}
