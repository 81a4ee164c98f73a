package io.servesim.plan;

import io.servesim.metrics.MetricCatalog;
import io.servesim.metrics.RunSummary;
import io.servesim.sweep.Cell;
import io.servesim.sweep.CellRunner;
import io.servesim.sweep.Grid;
import io.servesim.sweep.SweepOutputs;
import io.servesim.decisions.TraceOptions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * A plan's search driven without Beam: each round's probes evaluated by a function (a model of a deployment, or the
 * real kernel through {@link CellRunner}, as a round's cells are run), until the search asks for none.
 */
final class Drive {
    private static final SweepOutputs ROWS_ONLY = new SweepOutputs(false, false, TraceOptions.OFF, false);

    /** What a drive did. */
    record Done(Results results, PlanResult result, int rounds, int runs) {
    }

    private Drive() {
    }

    static Done search(PlanSearch search, Function<Probe, Outcome> evaluate) {
        Results results = new Results();
        int rounds = 0;
        int runs = 0;
        for (List<Probe> probes = search.next(results); !probes.isEmpty(); probes = search.next(results)) {
            rounds++;
            for (Probe p : probes) {
                results.put(p.key(), evaluate.apply(p));
                runs++;
            }
        }
        return new Done(results, search.conclude(results), rounds, runs);
    }

    /** {@code p} run on the kernel as its round's cells would be (one per seed, the worst counting). */
    static Outcome kernel(PlanSpec plan, Probe p) {
        List<Outcome> bySeed = new ArrayList<>();
        for (Cell cell : Grid.expand(PlanRounds.spec(plan, "probe", List.of(p))).cells()) {
            RunSummary s = CellRunner.run(cell, ROWS_ONLY).summary();
            Map<String, Double> values = new LinkedHashMap<>();
            for (String m : PlanRounds.columns(plan)) {
                Object v = MetricCatalog.column(m).rowValue(s);
                values.put(m, v == null ? null : ((Number) v).doubleValue());
            }
            bySeed.add(new Outcome(values, s.count("injected"), s.count("completed"), null));
        }
        return Outcome.worst(bySeed, plan.slos());
    }
}
