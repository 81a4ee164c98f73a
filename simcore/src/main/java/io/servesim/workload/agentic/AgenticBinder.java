package io.servesim.workload.agentic;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.servesim.config.ConfigNode;
import io.servesim.workload.dist.DistributionBinder.Kind;
import io.servesim.workload.dist.DistributionBinder;
import io.servesim.workload.dist.DistributionSpec;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Binds and validates a client's {@code agentic} section strictly (unknown keys, unknown step ids
 * and unknown tools are reported with their path and the valid choices). Either {@code steps}
 * (and {@code tools}, {@code loop}) are given, {@code workflow} then being a free label, or
 * {@code steps} is omitted and {@code workflow} names a {@link Workflows built-in}, whose
 * {@code loop} and {@code tools} blocks may be replaced by giving them. The structural rules are
 * checked by {@link WorkflowRules}; the settings read are {@link AgenticSettings}.
 */
public final class AgenticBinder {
    private AgenticBinder() {
    }

    /** The spec, or null when invalid (problems recorded); finishes the node (strict keys). */
    public static AgenticSpec bind(ConfigNode a, Path baseDir) {
        String workflow = a.get(AgenticSettings.WORKFLOW);
        if (a.has("steps")) {
            return bindSteps(a, workflow, baseDir);
        }
        if (workflow == null) {
            a.problem(a.pathOf("steps"), "required: the workflow's steps, or workflow: <built-in> (valid: "
                    + String.join(", ", Workflows.names()) + ")");
            a.finish();
            return null;
        }
        if (!Workflows.names().contains(workflow)) {
            a.problem(a.pathOf("workflow"), "unknown built-in workflow '" + workflow + "' (give steps to define one); valid: "
                    + String.join(", ", Workflows.names()));
            return null;
        }
        ObjectNode merged = Workflows.withOverrides(workflow, (ObjectNode) a.raw());
        ConfigNode n = a.over(merged);
        n.declare(AgenticSettings.WORKFLOW.key());
        return bindSteps(n, workflow, baseDir);
    }

    private static AgenticSpec bindSteps(ConfigNode a, String workflow, Path baseDir) {
        if (workflow == null && !a.has(AgenticSettings.WORKFLOW.key())) {
            a.problem(a.pathOf("workflow"), "required: a name for the workflow (a built-in name or a label)");
        }
        Map<String, ToolSpec> tools = tools(a.child("tools"), baseDir);
        List<ConfigNode> nodes = a.list("steps");
        if (nodes.isEmpty() && a.raw().path("steps").isArray()) {
            a.problem(a.pathOf("steps"), "must list at least one step");
        }
        List<StepSpec> steps = new ArrayList<>();
        Map<String, Integer> seen = new HashMap<>();
        boolean ok = tools != null;
        for (int i = 0; i < nodes.size(); i++) {
            StepSpec s = step(nodes.get(i), tools, baseDir);
            if (s == null) {
                ok = false;
                continue;
            }
            Integer first = seen.putIfAbsent(s.id(), i);
            if (first != null) {
                nodes.get(i).problem(nodes.get(i).pathOf("id"), "duplicate step id '" + s.id() + "' (also steps[" + first + "])");
                ok = false;
            }
            steps.add(s);
        }
        LoopSpec loop = loop(a.child("loop"), baseDir);
        a.finish();
        if (!ok) {
            undeclaredSteps(a, nodes);
        }
        if (!ok || workflow == null || nodes.isEmpty() || (a.has("loop") && loop == null)) {
            return null;
        }
        if (!WorkflowRules.check(a, nodes, steps, loop, tools)) {
            return null;
        }
        return new AgenticSpec(workflow, steps, loop, tools);
    }

    /**
     * When some step failed to bind, the graph rules ({@link WorkflowRules}) do not run; this still
     * reports every {@code depends_on} and {@code loop.over} entry naming no declared step, so one pass lists all
     * problems.
     */
    private static void undeclaredSteps(ConfigNode a, List<ConfigNode> nodes) {
        Set<String> declared = new LinkedHashSet<>();
        for (ConfigNode n : nodes) {
            if (n.raw().path("id").isTextual()) {
                declared.add(n.raw().path("id").asText());
            }
        }
        for (ConfigNode n : nodes) {
            String self = n.raw().path("id").asText(null);
            List<String> others = declared.stream().filter(id -> !id.equals(self)).toList();
            Set<String> seen = new HashSet<>();
            JsonNode deps = n.raw().path("depends_on");
            for (int j = 0; j < deps.size(); j++) {
                JsonNode d = deps.get(j);
                if (d.isTextual() && !declared.contains(d.asText())) {
                    n.problem(n.pathOf("depends_on") + "[" + j + "]", "unknown step '" + d.asText() + "'; valid: "
                            + String.join(", ", others));
                } else if (d.isTextual() && !seen.add(d.asText())) {
                    n.problem(n.pathOf("depends_on") + "[" + j + "]", "step '" + d.asText() + "' is listed twice");
                }
            }
        }
        for (JsonNode o : a.raw().path("loop").path("over")) {
            if (o.isTextual() && !declared.contains(o.asText())) {
                a.problem(a.pathOf("loop") + ".over", "unknown step '" + o.asText() + "'; valid: " + String.join(", ", declared));
            }
        }
    }

    private static StepSpec step(ConfigNode n, Map<String, ToolSpec> tools, Path baseDir) {
        String id = n.get(AgenticSettings.STEP_ID);
        if (id == null && !n.has(AgenticSettings.STEP_ID.key()) || id != null && id.isBlank()) {
            n.problem(n.pathOf("id"), "required: a step id unique within the workflow");
        }
        String typeName = n.get(AgenticSettings.STEP_TYPE);
        if (typeName == null && !n.has("type")) {
            n.problem(n.pathOf("type"), "required; valid: " + String.join(", ", StepType.NAMES));
        }
        List<String> dependsOn = strings(n, AgenticSettings.DEPENDS_ON.key());
        Long fanOut = n.get(AgenticSettings.FAN_OUT);
        String growth = n.get(AgenticSettings.STEP_CONTEXT_GROWTH);
        String tool = n.get(AgenticSettings.TOOL);
        DistributionSpec input = distribution(n, "input_distribution", Kind.TOKENS, baseDir);
        DistributionSpec output = distribution(n, "output_distribution", Kind.TOKENS, baseDir);
        StepType type = typeName == null ? null : StepType.of(typeName);
        if (type == StepType.LLM_CALL) {
            for (String key : new String[] {"input_distribution", "output_distribution"}) {
                if (!n.has(key)) {
                    n.problem(n.pathOf(key), "required for an llm_call step");
                }
            }
            if (n.has("tool")) {
                n.problem(n.pathOf("tool"), "only for tool_call steps");
            }
        } else if (type == StepType.TOOL_CALL) {
            for (String key : new String[] {"input_distribution", "output_distribution"}) {
                if (n.has(key)) {
                    n.problem(n.pathOf(key), "not allowed on a tool_call step (its latency and output come from its tool)");
                }
            }
            // With an invalid tool (tools null, already reported) the step's tool name is not judged.
            String valid = tools == null ? "" : tools.isEmpty() ? "; none is defined (add it under agentic.tools)"
                    : "; valid: " + String.join(", ", sorted(tools));
            if (tool == null && !n.has(AgenticSettings.TOOL.key())) {
                n.problem(n.pathOf("tool"), "required for a tool_call step" + valid);
            } else if (tools != null && !tools.containsKey(tool)) {
                n.problem(n.pathOf("tool"), "unknown tool '" + tool + "'" + valid);
            }
        }
        n.finish();
        boolean llmOk = type != StepType.LLM_CALL || input != null && output != null && !n.has("tool");
        boolean toolOk = type != StepType.TOOL_CALL || tools != null && tools.containsKey(tool) && !n.has("input_distribution")
                && !n.has("output_distribution");
        if (id == null || id.isBlank() || type == null || dependsOn == null || n.refused(AgenticSettings.FAN_OUT)
                || !llmOk || !toolOk) {
            return null;
        }
        return new StepSpec(id, type, type == StepType.TOOL_CALL ? tool : null, dependsOn,
                fanOut == null ? 1 : Math.toIntExact(fanOut), "accumulate".equals(growth), input, output);
    }

    private static Map<String, ToolSpec> tools(ConfigNode t, Path baseDir) {
        Map<String, ToolSpec> out = new LinkedHashMap<>();
        if (!t.present()) {
            return out;
        }
        boolean ok = true;
        Iterator<String> names = t.raw().fieldNames();
        while (names.hasNext()) {
            String name = names.next();
            ConfigNode tool = t.child(name);
            DistributionSpec latency = required(tool, "latency", Kind.MICROS, baseDir,
                    "the call's latency in microseconds, e.g. {type: exponential, params: {mean: 50000}}");
            DistributionSpec tokens = required(tool, "output_tokens", Kind.TOKENS, baseDir,
                    "tokens the result adds to the next llm_call's prompt, e.g. {type: constant, params: {value: 200}}");
            tool.finish();
            if (latency == null || tokens == null) {
                ok = false;
            } else {
                out.put(name, new ToolSpec(latency, tokens));
            }
        }
        t.finish();
        return ok ? out : null;
    }

    private static LoopSpec loop(ConfigNode l, Path baseDir) {
        if (!l.present()) {
            return null;
        }
        List<String> over = strings(l, AgenticSettings.LOOP_OVER.key());
        if (!l.has("over")) {
            l.problem(l.pathOf("over"), "required: the ids of the steps that repeat");
        } else if (over != null && over.isEmpty()) {
            l.problem(l.pathOf("over"), "must name at least one step");
        }
        Long max = l.get(AgenticSettings.LOOP_MAX_ITERATIONS);
        if (!l.has(AgenticSettings.LOOP_MAX_ITERATIONS.key())) {
            l.problem(l.pathOf("max_iterations"), "required: the upper bound on iterations (>= 1)");
        }
        l.declare("iterations");
        DistributionSpec iterations = l.has("iterations") ? DistributionBinder.bind(l.child("iterations"), Kind.COUNT, baseDir)
                : null;
        l.finish();
        if (over == null || over.isEmpty() || max == null || (l.has("iterations") && iterations == null)) {
            return null;
        }
        return new LoopSpec(over, Math.toIntExact(max), iterations);
    }

    private static DistributionSpec distribution(ConfigNode n, String key, Kind kind, Path baseDir) {
        ConfigNode d = n.child(key);
        return d.present() ? DistributionBinder.bind(d, kind, baseDir) : null;
    }

    private static DistributionSpec required(ConfigNode n, String key, Kind kind, Path baseDir, String what) {
        if (!n.has(key)) {
            n.problem(n.pathOf(key), "required: " + what);
            n.child(key);
            return null;
        }
        return DistributionBinder.bind(n.child(key), kind, baseDir);
    }

    /**
     * A list of step ids under {@code key} ({@link AgenticSettings#DEPENDS_ON}, {@link AgenticSettings#LOOP_OVER}; empty
     * when absent), or null after recording a problem that says the list holds step ids.
     */
    static List<String> strings(ConfigNode n, String key) {
        JsonNode v = n.rawValue(key);
        List<String> out = new ArrayList<>();
        if (v == null) {
            return out;
        }
        if (!v.isArray()) {
            n.problem(n.pathOf(key), "must be a list of step ids");
            return null;
        }
        for (JsonNode e : v) {
            if (!e.isTextual()) {
                n.problem(n.pathOf(key), "must be a list of step ids, got " + e);
                return null;
            }
            out.add(e.asText());
        }
        return out;
    }

    private static List<String> sorted(Map<String, ToolSpec> tools) {
        List<String> names = new ArrayList<>(tools.keySet());
        names.sort(null);
        return names;
    }
}
