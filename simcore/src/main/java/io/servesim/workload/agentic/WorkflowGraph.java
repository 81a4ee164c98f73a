package io.servesim.workload.agentic;

import io.servesim.workload.dist.DistributionSpec;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A validated workflow compiled into arrays: parents and children per step (loop-back edges
 * removed), and the instance layout. Every step instance of one pass has a slot:
 * {@code slotBase[s] + instance}; loop-body slots are reused by each iteration.
 *
 * <p>Instances: a step without {@code fan_out} has one instance, which waits for every instance of
 * every parent (so a step whose parent is fanned out is a fan-in). A step with {@code fan_out: N}
 * and a single parent that has k > 1 instances expands per parent instance (a tree: N x k
 * instances, instance j waiting for parent instance j / N); otherwise it has N instances, each
 * waiting for every parent instance. decompose -> 4 candidates -> 4 expansions each is 1 + 4 + 16 slots.
 */
public final class WorkflowGraph {
    final String[] ids;
    final StepType[] types;
    final DistributionSpec[] input;
    final DistributionSpec[] output;
    final ToolSpec[] tool;
    final boolean[] accumulate;
    final boolean[] inLoop;
    final int[][] parents;
    final int[][] children;
    final int[] fanOut;
    final int[] instances;
    final boolean[] tree;
    final int[] slotBase;
    /** Parent instances a slot waits for in the first pass (iteration 0). */
    final int[] initialPending;
    /** Parent instances inside the loop body a body slot waits for in later iterations. */
    final int[] bodyPending;
    final int[] roots;
    final int slots;
    final int bodySlots;
    final LoopSpec loop;
    private final Map<String, Integer> index = new HashMap<>();

    WorkflowGraph(List<StepSpec> steps, LoopSpec loop, Map<String, ToolSpec> tools) {
        int n = steps.size();
        this.loop = loop;
        ids = new String[n];
        types = new StepType[n];
        input = new DistributionSpec[n];
        output = new DistributionSpec[n];
        tool = new ToolSpec[n];
        accumulate = new boolean[n];
        inLoop = new boolean[n];
        fanOut = new int[n];
        for (int i = 0; i < n; i++) {
            StepSpec s = steps.get(i);
            ids[i] = s.id();
            index.put(s.id(), i);
            types[i] = s.type();
            input[i] = s.input();
            output[i] = s.output();
            tool[i] = s.tool() == null ? null : tools.get(s.tool());
            accumulate[i] = s.accumulate();
            fanOut[i] = s.fanOut();
        }
        List<String> over = loop == null ? List.of() : loop.over();
        for (String id : over) {
            inLoop[index.get(id)] = true;
        }
        parents = new int[n][];
        List<List<Integer>> kids = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            kids.add(new ArrayList<>());
        }
        for (int i = 0; i < n; i++) {
            List<Integer> ps = new ArrayList<>();
            for (String d : steps.get(i).dependsOn()) {
                int p = index.get(d);
                if (!isLoopBack(over, d, ids[i])) {
                    ps.add(p);
                    kids.get(p).add(i);
                }
            }
            parents[i] = ps.stream().mapToInt(Integer::intValue).toArray();
        }
        children = new int[n][];
        for (int i = 0; i < n; i++) {
            children[i] = kids.get(i).stream().mapToInt(Integer::intValue).toArray();
        }
        int[] order = topologicalOrder(parents, children);
        instances = new int[n];
        tree = new boolean[n];
        for (int s : order) {
            tree[s] = fanOut[s] > 1 && parents[s].length == 1 && instances[parents[s][0]] > 1;
            instances[s] = tree[s] ? instances[parents[s][0]] * fanOut[s] : fanOut[s];
        }
        slotBase = new int[n];
        int next = 0;
        int body = 0;
        for (int s = 0; s < n; s++) {
            slotBase[s] = next;
            next += instances[s];
            body += inLoop[s] ? instances[s] : 0;
        }
        slots = next;
        bodySlots = body;
        initialPending = new int[slots];
        bodyPending = new int[slots];
        List<Integer> rootList = new ArrayList<>();
        for (int s = 0; s < n; s++) {
            if (parents[s].length == 0) {
                rootList.add(s);
            }
            int all = 0;
            int inBody = 0;
            for (int p : parents[s]) {
                int count = tree[s] ? 1 : instances[p];
                all += count;
                inBody += inLoop[p] && inLoop[s] ? count : 0;
            }
            for (int j = 0; j < instances[s]; j++) {
                initialPending[slotBase[s] + j] = all;
                bodyPending[slotBase[s] + j] = inBody;
            }
        }
        roots = rootList.stream().mapToInt(Integer::intValue).toArray();
    }

    /** A dependency between two body steps that points back in {@code loop.over} order. */
    static boolean isLoopBack(List<String> over, String parent, String child) {
        int p = over.indexOf(parent);
        int c = over.indexOf(child);
        return p >= 0 && c >= 0 && p >= c;
    }

    /** Kahn's algorithm in declaration order; the graph is acyclic (validated). */
    static int[] topologicalOrder(int[][] parents, int[][] children) {
        int n = parents.length;
        int[] pending = new int[n];
        int[] order = new int[n];
        int head = 0;
        int tail = 0;
        for (int i = 0; i < n; i++) {
            pending[i] = parents[i].length;
            if (pending[i] == 0) {
                order[tail++] = i;
            }
        }
        while (head < tail) {
            int s = order[head++];
            for (int c : children[s]) {
                if (--pending[c] == 0) {
                    order[tail++] = c;
                }
            }
        }
        if (tail != n) {
            throw new IllegalStateException("workflow has a cycle (validation missed it)");
        }
        return order;
    }

    /** The step index of {@code id}, or -1. */
    public int indexOf(String id) {
        Integer i = index.get(id);
        return i == null ? -1 : i;
    }

    public String stepId(int step) { return ids[step]; }
    public StepType type(int step) { return types[step]; }
    /** Instances of {@code step} per pass (per loop iteration for body steps). */
    public int instances(int step) { return instances[step]; }
    public boolean inLoop(int step) { return inLoop[step]; }
    public int[] parents(int step) { return parents[step].clone(); }

    /** Whether instance {@code j} of {@code step} waits for instance {@code pj} of its parent {@code parent}. */
    public boolean waitsFor(int step, int j, int parent, int pj) {
        return !tree[step] || j / fanOut[step] == pj;
    }

    /** LLM calls in one session that runs {@code iterations} loop iterations. */
    public int llmCalls(int iterations) {
        int n = 0;
        for (int s = 0; s < ids.length; s++) {
            if (types[s] == StepType.LLM_CALL) {
                n += inLoop[s] ? instances[s] * iterations : instances[s];
            }
        }
        return n;
    }

    /** Instances of fanned-out steps (fan_out given) in one session of {@code iterations} iterations. */
    public int fanOutInstances(int iterations) {
        int n = 0;
        for (int s = 0; s < ids.length; s++) {
            if (fanOut[s] > 1) {
                n += inLoop[s] ? instances[s] * iterations : instances[s];
            }
        }
        return n;
    }
}
