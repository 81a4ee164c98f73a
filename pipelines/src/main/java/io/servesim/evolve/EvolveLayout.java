package io.servesim.evolve;

import io.servesim.sweep.RoundsLayout;
import java.util.List;
import java.util.Set;

/**
 * A search's output folder as {@code OutputDir} checks it ({@link RoundsLayout}): {@code rounds/} (each generation's
 * sweep, then the baselines' and the held-out one), {@code generations/} and {@code comparison/} are its data;
 * {@code _EVOLVE.yaml} its definition, identified by the evolve id; {@code best-policy.yaml}, {@code summary.txt},
 * {@code report.html} and {@code _SUMMARY.json} names it writes.
 */
final class EvolveLayout {
    private EvolveLayout() {
    }

    static RoundsLayout of(EvolveSpec spec) {
        return new RoundsLayout("search", EvolveDefinition.DEFINITION, EvolveDefinition.of(spec),
                List.of(EvolveOutputs.GENERATIONS, EvolveOutputs.COMPARISON), Set.of(EvolveOutputs.SUMMARY_JSON,
                EvolveOutputs.BEST_POLICY, EvolveOutputs.SUMMARY_TEXT, EvolveOutputs.REPORT),
                List.of("base", "fitness_weights", "policies", "search", "cmaes", "train", "held_out", "baselines"),
                "the evolve file is the same, but a file its base config or workloads read changed since");
    }
}
