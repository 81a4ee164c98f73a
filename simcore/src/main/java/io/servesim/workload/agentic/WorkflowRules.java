package io.servesim.workload.agentic;

import io.servesim.config.ConfigNode;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The structural rules of a workflow (BLIS agentic specification, "Validation Rules"), checked on
 * bound steps; each problem names its path and the valid choices:
 * <ol>
 *   <li>{@code depends_on} and {@code loop.over} name existing steps;</li>
 *   <li>the DAG is acyclic, ignoring loop-back edges (a dependency from a later-listed body step
 *       to an earlier-listed one);</li>
 *   <li>exactly one root step (no {@code depends_on}), unless every root is in the loop body
 *       (the body is the entry); roots are llm_call steps (only roots arrive with the session);</li>
 *   <li>{@code loop.over} steps form a connected subgraph, and no step outside the body both
 *       depends on it and feeds it;</li>
 *   <li>{@code context_growth: accumulate} only on steps inside {@code loop.over};</li>
 *   <li>every tool in {@code tools} is used by some step (no ignored blocks);</li>
 *   <li>at most {@link #MAX_SLOTS} step instances per pass (fan-out trees multiply).</li>
 * </ol>
 * Tool references, {@code fan_out >= 2} and the llm_call / tool_call distribution rules are checked
 * while binding each step ({@link AgenticBinder}).
 */
final class WorkflowRules {
    static final int MAX_SLOTS = 100_000;

    private WorkflowRules() {
    }

    static boolean check(ConfigNode a, List<ConfigNode> nodes, List<StepSpec> steps, LoopSpec loop,
                         Map<String, ToolSpec> tools) {
        List<String> ids = steps.stream().map(StepSpec::id).toList();
        String valid = String.join(", ", ids);
        boolean ok = true;
        for (int i = 0; i < steps.size(); i++) {
            String self = steps.get(i).id();
            List<String> deps = steps.get(i).dependsOn();
            for (int j = 0; j < deps.size(); j++) {
                String d = deps.get(j);
                String at = nodes.get(i).pathOf("depends_on") + "[" + j + "]";
                if (!ids.contains(d)) {
                    nodes.get(i).problem(at, "unknown step '" + d + "'; valid: "
                            + String.join(", ", ids.stream().filter(id -> !id.equals(self)).toList()));
                    ok = false;
                } else if (deps.subList(0, j).contains(d)) {
                    nodes.get(i).problem(at, "step '" + d + "' is listed twice");
                    ok = false;
                }
            }
        }
        List<String> over = loop == null ? List.of() : loop.over();
        String overPath = a.pathOf("loop") + ".over";
        Set<String> distinct = new HashSet<>();
        for (String o : over) {
            if (!ids.contains(o)) {
                a.problem(overPath, "unknown step '" + o + "'; valid: " + valid);
                ok = false;
            } else if (!distinct.add(o)) {
                a.problem(overPath, "step '" + o + "' is listed twice");
                ok = false;
            }
        }
        Set<String> usedTools = new HashSet<>();
        steps.forEach(s -> usedTools.add(s.tool()));
        for (String t : tools.keySet()) {
            if (!usedTools.contains(t)) {
                a.problem(a.pathOf("tools") + "." + t, "not used by any tool_call step");
                ok = false;
            }
        }
        for (int i = 0; i < steps.size(); i++) {
            if (steps.get(i).accumulate() && !over.contains(steps.get(i).id())) {
                nodes.get(i).problem(nodes.get(i).pathOf("context_growth"), "accumulate is only valid for steps inside loop.over"
                        + (over.isEmpty() ? " (no loop is defined)" : " (" + String.join(", ", over) + ")"));
                ok = false;
            }
        }
        if (!ok) {
            return false;
        }
        return structure(a, nodes, steps, over, overPath);
    }

    private static boolean structure(ConfigNode a, List<ConfigNode> nodes, List<StepSpec> steps, List<String> over,
                                     String overPath) {
        int n = steps.size();
        List<String> ids = steps.stream().map(StepSpec::id).toList();
        List<List<Integer>> parents = new ArrayList<>();
        List<List<Integer>> children = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            parents.add(new ArrayList<>());
            children.add(new ArrayList<>());
        }
        for (int i = 0; i < n; i++) {
            for (String d : steps.get(i).dependsOn()) {
                if (!WorkflowGraph.isLoopBack(over, d, ids.get(i))) {
                    parents.get(i).add(ids.indexOf(d));
                    children.get(ids.indexOf(d)).add(i);
                }
            }
        }
        List<Integer> cyclic = cyclicSteps(parents, children);
        if (!cyclic.isEmpty()) {
            int first = cyclic.get(0);
            nodes.get(first).problem(nodes.get(first).pathOf("depends_on"), "dependency cycle among steps "
                    + String.join(", ", cyclic.stream().map(ids::get).toList())
                    + " (only dependencies between loop.over steps that point back in its order are loop-back edges)");
            return false;
        }
        boolean ok = true;
        List<String> roots = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            if (parents.get(i).isEmpty()) {
                roots.add(ids.get(i));
                if (steps.get(i).type() != StepType.LLM_CALL) {
                    nodes.get(i).problem(nodes.get(i).pathOf("type"),
                            "a root step (no depends_on) must be llm_call: only roots arrive with the session");
                    ok = false;
                }
            }
        }
        if (roots.size() > 1 && !over.containsAll(roots)) {
            a.problem(a.pathOf("steps"), "exactly one root step (no depends_on) is allowed unless every root is in "
                    + "loop.over; roots: " + String.join(", ", roots));
            ok = false;
        }
        ok &= loopShape(a, nodes, parents, children, ids, over, overPath);
        ok &= size(nodes, steps, parents, children);
        return ok;
    }

    /**
     * Steps on a cycle, in declaration order: Kahn's algorithm leaves the steps on or after a cycle unvisited; of those,
     * repeatedly dropping any with no unvisited child removes the ones merely downstream of a cycle (a step that
     * depends on a self-dependent one), leaving the cycles (and steps between two of them).
     */
    private static List<Integer> cyclicSteps(List<List<Integer>> parents, List<List<Integer>> children) {
        int n = parents.size();
        int[] pending = new int[n];
        Deque<Integer> ready = new ArrayDeque<>();
        for (int i = 0; i < n; i++) {
            pending[i] = parents.get(i).size();
            if (pending[i] == 0) {
                ready.add(i);
            }
        }
        while (!ready.isEmpty()) {
            for (int c : children.get(ready.poll())) {
                if (--pending[c] == 0) {
                    ready.add(c);
                }
            }
        }
        boolean[] left = new boolean[n];
        for (int i = 0; i < n; i++) {
            left[i] = pending[i] > 0;
        }
        for (boolean dropped = true; dropped; ) {
            dropped = false;
            for (int i = 0; i < n; i++) {
                if (left[i] && children.get(i).stream().noneMatch(c -> left[c])) {
                    left[i] = false;
                    dropped = true;
                }
            }
        }
        List<Integer> onCycle = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            if (left[i]) {
                onCycle.add(i);
            }
        }
        return onCycle;
    }

    private static boolean loopShape(ConfigNode a, List<ConfigNode> nodes, List<List<Integer>> parents,
                                     List<List<Integer>> children, List<String> ids, List<String> over, String overPath) {
        if (over.isEmpty()) {
            return true;
        }
        Set<Integer> body = new HashSet<>();
        over.forEach(o -> body.add(ids.indexOf(o)));
        Set<Integer> reached = new HashSet<>();
        Deque<Integer> todo = new ArrayDeque<>(List.of(ids.indexOf(over.get(0))));
        while (!todo.isEmpty()) {
            int s = todo.poll();
            if (reached.add(s)) {
                for (int x : parents.get(s)) {
                    if (body.contains(x)) {
                        todo.add(x);
                    }
                }
                for (int x : children.get(s)) {
                    if (body.contains(x)) {
                        todo.add(x);
                    }
                }
            }
        }
        boolean ok = true;
        if (!reached.containsAll(body)) {
            List<String> apart = over.stream().filter(o -> !reached.contains(ids.indexOf(o))).toList();
            a.problem(overPath, "loop steps must form a connected subgraph; not connected to '" + over.get(0) + "': "
                    + String.join(", ", apart));
            ok = false;
        }
        Set<Integer> afterLoop = descendants(body, children);
        for (int i = 0; i < ids.size(); i++) {
            if (body.contains(i) || !afterLoop.contains(i)) {
                continue;
            }
            for (int c : children.get(i)) {
                if (body.contains(c)) {
                    nodes.get(i).problem(nodes.get(i).pathOf("depends_on"), "step '" + ids.get(i) + "' is outside "
                            + "loop.over but both depends on the loop body and feeds it (step '" + ids.get(c) + "')");
                    ok = false;
                    break;
                }
            }
        }
        return ok;
    }

    private static Set<Integer> descendants(Set<Integer> from, List<List<Integer>> children) {
        Set<Integer> seen = new HashSet<>();
        Deque<Integer> todo = new ArrayDeque<>(from);
        while (!todo.isEmpty()) {
            for (int c : children.get(todo.poll())) {
                if (!from.contains(c) && seen.add(c)) {
                    todo.add(c);
                }
            }
        }
        return seen;
    }

    private static boolean size(List<ConfigNode> nodes, List<StepSpec> steps, List<List<Integer>> parents,
                                List<List<Integer>> children) {
        int n = steps.size();
        long[] instances = new long[n];
        int[] order = WorkflowGraph.topologicalOrder(toArrays(parents), toArrays(children));
        long total = 0;
        for (int s : order) {
            int fan = steps.get(s).fanOut();
            List<Integer> ps = parents.get(s);
            instances[s] = fan > 1 && ps.size() == 1 && instances[ps.get(0)] > 1 ? instances[ps.get(0)] * fan : fan;
            total += instances[s];
            if (total > MAX_SLOTS) {
                nodes.get(s).problem(nodes.get(s).pathOf("fan_out"), "the workflow expands to more than " + MAX_SLOTS
                        + " step instances per pass (fan-out trees multiply)");
                return false;
            }
        }
        return true;
    }

    private static int[][] toArrays(List<List<Integer>> lists) {
        int[][] out = new int[lists.size()][];
        for (int i = 0; i < out.length; i++) {
            out[i] = lists.get(i).stream().mapToInt(Integer::intValue).toArray();
        }
        return out;
    }
}
