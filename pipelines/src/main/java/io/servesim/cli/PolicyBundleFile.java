package io.servesim.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.servesim.config.ConfigException;
import io.servesim.config.StrictJson;
import io.servesim.run.PolicyKind;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A PolicyBundle file ({@code --policy-config}): one YAML mapping with any of the policy kinds
 * ({@link PolicyKind#ALL}: {@code admission}, {@code priority}, {@code routing}, {@code scheduler}),
 * each a template name or {@code {name, params}}.
 * Its entries replace the run config's {@code policies.*}; unknown keys fail naming the file.
 */
final class PolicyBundleFile {
    private static final List<String> KEYS = PolicyKind.ALL.stream().map(PolicyKind::name).toList();

    private PolicyBundleFile() {
    }

    static void apply(Path file, ObjectNode config) {
        ObjectNode bundle = StrictJson.readMapping(file);
        List<ConfigException.Problem> problems = new ArrayList<>();
        bundle.fieldNames().forEachRemaining(k -> {
            if (!KEYS.contains(k)) {
                problems.add(new ConfigException.Problem(file + ": " + k, "unknown policy kind; valid: " + String.join(", ", KEYS)));
            }
        });
        if (!problems.isEmpty()) {
            throw new ConfigException(problems);
        }
        ObjectNode policies = config.has("policies") && config.get("policies").isObject()
                ? (ObjectNode) config.get("policies") : config.putObject("policies");
        bundle.fields().forEachRemaining(e -> policies.set(e.getKey(), e.getValue()));
    }
}
