package io.servesim.plan;

import io.servesim.config.ConfigException;
import io.servesim.run.RunPlan;
import io.servesim.sweep.Cell;
import io.servesim.sweep.CellRunner;
import io.servesim.sweep.Grid;
import io.servesim.workload.GeneratorSpec;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Every candidate's config, bound and prepared as its runs will be ({@code RunPlan.prepare}: latency model, KV capacity,
 * vLLM's start-up checks) before anything runs. A candidate that cannot run (the model's weights leave its GPUs no KV
 * cache, a TP its model's heads do not divide) is left out of the search with the reason; a problem every candidate has
 * is the plan's own (a bad key in the base config) and is refused, its path under {@code base}; so are two candidates
 * whose configs are the same (two engine settings that set nothing new).
 */
final class CandidateCheck {
    private CandidateCheck() {
    }

    /** The candidates of {@code plan} that cannot run, by index, with why; throws {@link ConfigException} as above. */
    static Map<Integer, String> invalid(PlanSpec plan) {
        double rate = plan.capacityOnly() ? plan.startRps() : plan.targetRps();
        List<Integer> budgets = plan.search().budgets();
        List<Probe> probes = plan.candidates().stream()
                .map(c -> new Probe(c.index(), rate, budgets.get(budgets.size() - 1), Stage.CONFIRM)).toList();
        Grid.Expansion grid = Grid.expand(PlanRounds.spec(plan, plan.name(), probes));
        Map<Integer, List<ConfigException.Problem>> problems = new LinkedHashMap<>();
        grid.invalid().forEach(i -> problems.put(index(plan, i.axes()), i.problems()));
        Map<String, Candidate> byConfig = new HashMap<>();
        List<ConfigException.Problem> twins = new ArrayList<>();
        for (Cell cell : grid.cells()) {
            Candidate c = plan.candidates().get(index(plan, cell.axes()));
            try {
                var run = CellRunner.plan(cell);
                if (!(run.config().workload() instanceof GeneratorSpec)) {
                    throw new ConfigException("workload", "a plan needs generated traffic whose rate it sets");
                }
            } catch (ConfigException e) {
                refuseHeapLimit(c, e.problems());
                problems.put(c.index(), e.problems());
                continue;
            }
            Candidate twin = byConfig.putIfAbsent(cell.cellId(), c);
            if (twin != null) {
                twins.add(new ConfigException.Problem("space.engine." + c.engine(), "candidate " + c.id() + " has the same"
                        + " config as " + twin.id() + ": its engine setting changes nothing of " + twin.engine() + "'s"));
            }
        }
        if (!twins.isEmpty()) {
            throw new ConfigException(twins.subList(0, 1));
        }
        if (problems.size() == plan.candidates().size() && !problems.isEmpty()) {
            throw new ConfigException(common(plan, problems));
        }
        Map<Integer, String> out = new LinkedHashMap<>();
        problems.forEach((i, p) -> out.put(i, String.join("; ", p.stream().map(ConfigException.Problem::toString).toList())));
        return out;
    }

    /**
     * Refuses the plan when {@code c} cannot run for want of this JVM's heap ({@link RunPlan#needsLargerHeap}): in a
     * larger one it runs, and a plan's answer may not depend on the machine it runs on.
     */
    private static void refuseHeapLimit(Candidate c, List<ConfigException.Problem> problems) {
        for (ConfigException.Problem p : problems) {
            if (RunPlan.needsLargerHeap(p)) {
                throw new ConfigException("space", "candidate " + c.id() + " does not fit this JVM's heap, though it is a"
                        + " deployment that can run (" + p.message() + "); run servesim with a larger heap"
                        + " (SERVESIM_JAVA_OPTS=-Xmx4g) or leave it out of the space: a plan's answer may not depend on the"
                        + " machine it runs on");
            }
        }
    }

    /**
     * What no candidate can run for: the problems all of them share, at the {@code space} key that set the value
     * ({@link #source}) or under {@code base} (a key of the base config; a capacity search's paths are its config's), else
     * each distinct problem (at most {@link #MAX_REASONS}) with the candidates that have it.
     */
    private static List<ConfigException.Problem> common(PlanSpec plan, Map<Integer, List<ConfigException.Problem>> problems) {
        Set<ConfigException.Problem> common = null;
        for (List<ConfigException.Problem> p : problems.values()) {
            if (common == null) {
                common = new LinkedHashSet<>(p);
            } else {
                common.retainAll(p);
            }
        }
        Candidate first = plan.candidates().get(0);
        String base = plan.capacityOnly() ? "" : "base.";
        if (common != null && !common.isEmpty()) {
            return common.stream().map(p -> new ConfigException.Problem(source(plan, first, p.path(), base + p.path()),
                    p.message())).toList();
        }
        Map<ConfigException.Problem, List<String>> distinct = new LinkedHashMap<>();
        problems.forEach((i, list) -> {
            Candidate c = plan.candidates().get(i);
            for (ConfigException.Problem p : list) {
                distinct.computeIfAbsent(new ConfigException.Problem(source(plan, c, p.path(), p.path()), p.message()),
                        k -> new ArrayList<>()).add(c.id());
            }
        });
        return distinct.entrySet().stream().limit(MAX_REASONS).map(e -> new ConfigException.Problem(e.getKey().path(),
                e.getKey().message() + " (" + (e.getValue().size() == 1 ? "candidate " + e.getValue().get(0)
                        : e.getValue().size() + " candidates, " + e.getValue().get(0) + " the first") + "; no candidate can run)"))
                .toList();
    }

    /** The most reasons a plan no candidate of which can run is refused with, the first found of each. */
    private static final int MAX_REASONS = 10;

    /** The space keys whose values a candidate's config paths take. */
    private static final Map<String, String> SPACE_KEYS = Map.of("deployment.hardware", "space.gpus", "deployment.tp",
            "space.tp", "deployment.instances", "space.replicas", "deployment.pd.prefill.replicas", "space.pd.prefill",
            "deployment.pd.decode.replicas", "space.pd.decode", "deployment.dp", "space.dp.ranks", "deployment.ep",
            "space.dp.ep");

    /**
     * Where the value at config {@code path} of {@code c} comes from: the {@code space} key that assigned it (an engine
     * setting's {@code space.engine.<name>.<key>}), else {@code otherwise}.
     */
    private static String source(PlanSpec plan, Candidate c, String path, String otherwise) {
        if (!plan.capacityOnly() && path.equals("deployment") && c.assignments().containsKey("deployment.hardware")) {
            return "space"; // the deployment as a whole (a model that fits none): the space's GPUs and TP chose it
        }
        if (plan.capacityOnly() || !c.assignments().containsKey(path)) {
            return otherwise;
        }
        if (path.startsWith("engine.")) {
            return "space.engine." + c.engine() + "." + path.substring("engine.".length());
        }
        return SPACE_KEYS.getOrDefault(path, otherwise);
    }

    private static int index(PlanSpec plan, List<Cell.AxisLabel> axes) {
        String id = axes.get(0).label();
        return plan.candidates().stream().filter(c -> c.id().equals(id)).findFirst().orElseThrow().index();
    }
}
