package io.servesim.run;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.servesim.config.ConfigException;
import io.servesim.config.StrictJson;
import io.servesim.policy.code.CodePolicies;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A PolicyBundle file ({@code --policy-config}, a sweep's {@code policy_configs} axis, a search
 * candidate): one YAML mapping with any of the policy kinds ({@link PolicyKind#ALL}: {@code admission},
 * {@code priority}, {@code routing}, {@code scheduler}, {@code autoscale}), each a template name or {@code {name, params}}:
 * policy parameters, or a code policy naming its Java source (relative to the bundle file:
 * {@code routing: {name: code, params: {source: LeastQueue.java}}}). Its entries replace a run config's {@code policies.*}; unknown kinds
 * fail naming the file, unknown or out-of-range params fail when the config is bound, naming their path.
 */
public final class PolicyBundleFile {
    private static final List<String> KEYS = PolicyKind.ALL.stream().map(PolicyKind::name).toList();

    private PolicyBundleFile() {
    }

    /**
     * The file's entries, kind -> its node, in file order, a code policy's relative {@code source} made absolute;
     * throws {@link ConfigException} for unknown kinds.
     */
    public static Map<String, JsonNode> read(Path file) {
        return read(file, null);
    }

    /**
     * {@link #read(Path)}, a code policy's relative {@code source} (relative to the file) written relative to
     * {@code relativeTo} instead (a sweep's cells resolve paths against their base's directory).
     */
    public static Map<String, JsonNode> read(Path file, Path relativeTo) {
        Path dir = file.toAbsolutePath().getParent();
        ObjectNode bundle = StrictJson.readMapping(file);
        List<ConfigException.Problem> problems = new ArrayList<>();
        Map<String, JsonNode> entries = new LinkedHashMap<>();
        bundle.fields().forEachRemaining(e -> {
            if (KEYS.contains(e.getKey())) {
                entries.put(e.getKey(), CodePolicies.withSourceRebased(e.getValue(), dir, relativeTo));
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
     *
     * @return where each entry went: config path ({@code policies.routing}) -> the entry's node there, for {@link #blame}
     */
    public static Map<String, JsonNode> apply(Path file, ObjectNode config) {
        Map<String, JsonNode> entries = read(file);
        ObjectNode policies = config.has("policies") && config.get("policies").isObject()
                ? (ObjectNode) config.get("policies") : config.putObject("policies");
        PolicyKind<?> autoscale = PolicyKind.AUTOSCALE;
        boolean autoscaleElsewhere = !autoscale.configPathIn(config).equals(autoscale.configPath());
        Map<String, JsonNode> placed = new LinkedHashMap<>();
        entries.forEach((kind, node) -> {
            if (kind.equals(autoscale.name()) && autoscaleElsewhere) {
                ((ObjectNode) config.get("autoscaling")).set("policy", node);
                placed.put("autoscaling.policy", node);
            } else {
                policies.set(kind, node);
                placed.put("policies." + kind, node);
            }
        });
        return placed;
    }

    /**
     * {@code e} with each problem about an entry of {@code file} that is still in {@code config} (no flag replaced it)
     * named where the user wrote it: {@code FILE: routing.params.x} rather than the run config's
     * {@code policies.routing.params.x}, which the config file never held.
     *
     * @param placed what {@link #apply} returned
     */
    public static ConfigException blame(ConfigException e, Path file, Map<String, JsonNode> placed, JsonNode config) {
        List<ConfigException.Problem> out = new ArrayList<>();
        for (ConfigException.Problem p : e.problems()) {
            String path = p.path() == null ? "" : p.path();
            String renamed = null;
            for (Map.Entry<String, JsonNode> entry : placed.entrySet()) {
                String at = entry.getKey();
                boolean under = path.equals(at) || path.startsWith(at + ".");
                if (under && config.at("/" + at.replace('.', '/')) == entry.getValue()) {
                    String kind = at.equals("autoscaling.policy") ? PolicyKind.AUTOSCALE.name() : at.substring("policies.".length());
                    renamed = file + ": " + kind + path.substring(at.length());
                }
            }
            out.add(renamed == null ? p : new ConfigException.Problem(renamed, p.message()));
        }
        return new ConfigException(out);
    }
}
