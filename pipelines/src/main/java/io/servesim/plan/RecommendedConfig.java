package io.servesim.plan;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import io.servesim.config.Overrides;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * The recommended candidate as a run config that {@code servesim run -c recommended.yaml} runs as it is: the plan's base
 * with the candidate's paths, the target rate, the full trace's requests and the plan's (first) seed set (so the run is the one
 * that met every SLO), keys set to null (a cleared {@code deployment.pd}) left out, and every relative path the base
 * names ({@code deployment.gpus}, {@code deployment.profile}, {@code deployment.coefficients}, a model's
 * {@code config.json}, a workload file, {@code workload.inference_perf}, {@code workload.trace.path}, an empirical
 * distribution's {@code file}, a code policy's {@code source}) rewritten to resolve from the folder the file is written
 * in.
 */
final class RecommendedConfig {
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory()
            .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER).enable(YAMLGenerator.Feature.MINIMIZE_QUOTES));

    private RecommendedConfig() {
    }

    /** The config tree of {@code c} at {@code rateRps} on {@code requests}, its paths resolving from {@code toDir}. */
    static ObjectNode tree(PlanSpec plan, Candidate c, double rateRps, int requests, Path toDir) {
        ObjectNode tree = plan.base().deepCopy();
        for (Map.Entry<String, JsonNode> e : c.assignments().entrySet()) {
            Overrides.set(tree, e.getKey(), e.getValue().deepCopy());
        }
        PlanRounds.workload(rateRps, requests).forEach((k, v) -> Overrides.set(tree, k, v));
        tree.put("seed", plan.seeds().get(0));
        dropNulls(tree);
        Path from = plan.baseDir();
        if (tree.get("deployment") instanceof ObjectNode deployment) {
            for (String key : List.of("gpus", "profile", "coefficients")) {
                rebase(deployment, key, from, toDir);
            }
            JsonNode model = deployment.get("model"); // a Hugging Face id stays; a config.json beside the plan moves
            if (model != null && model.isTextual() && Files.isRegularFile(from.resolve(model.asText()))) {
                rebase(deployment, "model", from, toDir);
            }
        }
        if (tree.path("workload").isTextual()) {
            rebase(tree, "workload", from, toDir);
        } else if (tree.get("workload") instanceof ObjectNode workload) {
            rebase(workload, "inference_perf", from, toDir);
            if (workload.get("trace") instanceof ObjectNode trace) {
                rebase(trace, "path", from, toDir);
            }
        }
        rebaseEmpirical(tree.path("workload"), from, toDir);
        if (tree.get("policies") instanceof ObjectNode policies) {
            policies.elements().forEachRemaining(p -> {
                if (p.get("params") instanceof ObjectNode params) {
                    rebase(params, "source", from, toDir); // a code policy's Java file
                }
            });
        }
        return tree;
    }

    /** The file's text: a header saying what it is, then the config. */
    static String text(PlanSpec plan, Candidate c, double rateRps, int requests, Path toDir) throws IOException {
        String header = "# servesim " + (plan.capacityOnly() ? "capacity" : "plan " + plan.name()) + ": the recommended"
                + " deployment, " + c.id() + " (" + c.gpus() + " x " + c.gpu() + ", " + String.format("%.2f", c.costUsdPerHour())
                + " USD per hour),\n# at the target rate on the full trace, the run that met every SLO. Run it with:\n"
                + "#   servesim run -c recommended.yaml\n";
        return header + YAML.writeValueAsString(tree(plan, c, rateRps, requests, toDir));
    }

    private static void rebase(ObjectNode section, String key, Path from, Path to) {
        JsonNode v = section.get(key);
        if (v != null && v.isTextual() && !Path.of(v.asText()).isAbsolute()) {
            section.set(key, TextNode.valueOf(relative(from, to, v.asText())));
        }
    }

    /** Every {@code {type: empirical, params: {file: F}}} under {@code node}, its file rebased. */
    private static void rebaseEmpirical(JsonNode node, Path from, Path to) {
        if (node instanceof ObjectNode o) {
            JsonNode params = o.path("params");
            if ("empirical".equalsIgnoreCase(o.path("type").asText()) && params instanceof ObjectNode p
                    && p.path("file").isTextual() && !Path.of(p.get("file").asText()).isAbsolute()) {
                p.put("file", relative(from, to, p.get("file").asText()));
            }
            o.elements().forEachRemaining(e -> rebaseEmpirical(e, from, to));
        } else if (node.isArray()) {
            node.elements().forEachRemaining(e -> rebaseEmpirical(e, from, to));
        }
    }

    private static String relative(Path from, Path to, String file) {
        return to.toAbsolutePath().normalize().relativize(from.resolve(file).toAbsolutePath().normalize()).toString();
    }

    private static void dropNulls(JsonNode node) {
        if (node instanceof ObjectNode o) {
            List<String> gone = new ArrayList<>();
            for (Iterator<Map.Entry<String, JsonNode>> it = o.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                if (e.getValue().isNull()) {
                    gone.add(e.getKey());
                } else {
                    dropNulls(e.getValue());
                }
            }
            gone.forEach(o::remove);
        } else if (node.isArray()) {
            node.forEach(RecommendedConfig::dropNulls);
        }
    }
}
