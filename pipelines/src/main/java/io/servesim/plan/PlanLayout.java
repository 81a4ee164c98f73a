package io.servesim.plan;

import io.servesim.sweep.RoundsLayout;
import java.util.List;
import java.util.Set;

/**
 * A plan's output folder as {@code OutputDir} checks it ({@link RoundsLayout}): {@code rounds/} (each round a sweep's
 * output folder), {@code candidates/} and {@code frontier/} are its data; {@code _PLAN.yaml} its definition,
 * identified by the plan id; {@code recommended.yaml}, {@code vllm-serve.txt} or {@code sglang-launch.txt}, {@code summary.txt},
 * {@code report.html} and {@code _SUMMARY.json} names it writes.
 */
final class PlanLayout {
    private PlanLayout() {
    }

    static RoundsLayout of(PlanSpec spec) {
        return new RoundsLayout("plan", PlanDefinition.DEFINITION, PlanDefinition.of(spec),
                List.of(PlanOutputs.CANDIDATES, PlanOutputs.FRONTIER), Set.of(PlanOutputs.SUMMARY_JSON,
                PlanOutputs.RECOMMENDED, VllmCommand.FILE, SglangCommand.FILE, PlanOutputs.SUMMARY_TEXT, PlanOutputs.REPORT),
                List.of("base", "target_rate_rps", "start_rps", "slo", "candidates", "search", "seeds"),
                "the plan file is the same, but a file its base config reads changed since");
    }
}
