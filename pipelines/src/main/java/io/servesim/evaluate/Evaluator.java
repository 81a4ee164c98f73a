package io.servesim.evaluate;

import io.servesim.decisions.DecisionSample;
import io.servesim.decisions.DecisionSink;
import io.servesim.decisions.TraceLevel;
import io.servesim.decisions.TraceOptions;
import io.servesim.decisions.TraceSummarizer;
import io.servesim.metrics.RecordSink;
import io.servesim.metrics.RunSummary;
import io.servesim.metrics.SessionSink;
import io.servesim.run.RunPlan;
import java.util.ArrayList;
import java.util.List;

/**
 * Evaluates a policy candidate (BLIS macro plan, PR 19, PR 20 and G.3 {@code EvaluationResult}:
 * inference-sim/inference-sim @ 7d4e8bac, {@code docs/plans/2026-02-11-macro-implementation-plan-v2.md}):
 * runs each case's plan once, traced at {@link TraceLevel#DECISIONS} with {@value #COUNTERFACTUAL_K}
 * counterfactual candidates (BLIS macro plan, PR 18: "Default k=3") into a summary, and collects fitness,
 * raw metrics, behaviour descriptors and the summary. The trace changes no metric. Realized regret
 * (re-simulated alternatives) is added when asked for, as {@code run}'s {@code --counterfactual-sample}
 * does; sweeps do not compute it (each sampled decision costs K - 1 more runs of its cell: run
 * {@code evaluate} or {@code run} on the cells of interest).
 */
public final class Evaluator {
    /** Top-K candidates kept per routing decision for the summary's regret. */
    public static final int COUNTERFACTUAL_K = 3;
    /** Worst decisions kept in each run's summary. */
    public static final int WORST_DECISIONS = 5;

    /**
     * One run to evaluate.
     *
     * @param label which workload and seed
     * @param plan  the candidate's resolved run (its fitness weights must not be empty)
     */
    public record Case(String label, RunPlan plan) {
    }

    private Evaluator() {
    }

    /** A case's run failed: which one, and what the runs before it scored (the cause says why). */
    public static final class RunFailed extends RuntimeException {
        private static final long serialVersionUID = 1L;

        RunFailed(String label, int index, int total, List<RunEvaluation> before, RuntimeException cause) {
            super("run " + label + " (" + index + " of " + total + ") failed" + (before.isEmpty() ? ""
                    : "; the runs before it finished: " + String.join(", ", before.stream()
                            .map(r -> r.label() + " fitness " + r.fitness()).toList())), cause);
        }
    }

    /**
     * Evaluates every case; with {@code counterfactualSample} &gt; 0 each run's summary adds the
     * realized regret of that many routing decisions (seeded by the case's seed), each re-simulated
     * with the request sent to every other of its top {@value #COUNTERFACTUAL_K} candidates: costs
     * up to {@code counterfactualSample x (K - 1) + 1} extra runs per case.
     */
    public static Evaluation evaluate(String candidate, List<Case> cases, int counterfactualSample) {
        return evaluate(candidate, cases, counterfactualSample, note -> { });
    }

    /**
     * {@link #evaluate(String, List, int)}, saying on {@code notes} when a case's sample found no routing decision
     * with alternatives to replay ({@link DecisionSample#nothingToReplay}).
     */
    public static Evaluation evaluate(String candidate, List<Case> cases, int counterfactualSample,
                                      java.util.function.Consumer<String> notes) {
        if (counterfactualSample < 0) {
            throw new IllegalArgumentException("counterfactual sample must be >= 0, got " + counterfactualSample);
        }
        List<RunEvaluation> runs = new ArrayList<>();
        for (Case c : cases) {
            if (c.plan().setup().fitness().isEmpty()) {
                throw new IllegalArgumentException("case " + c.label() + " has no fitness weights");
            }
            TraceSummarizer summarizer = new TraceSummarizer(WORST_DECISIONS);
            DecisionSample sample = counterfactualSample > 0
                    ? new DecisionSample(counterfactualSample, c.plan().config().seed()) : null;
            DecisionSink sink = sample == null ? summarizer : d -> {
                summarizer.accept(d);
                sample.accept(d);
            };
            RunSummary summary;
            try {
                summary = c.plan().run(RecordSink.NONE, SessionSink.NONE, sink,
                        new TraceOptions(TraceLevel.DECISIONS, COUNTERFACTUAL_K));
            } catch (RuntimeException e) {
                throw new RunFailed(c.label(), runs.size() + 1, cases.size(), runs, e);
            }
            RawMetrics raw = new RawMetrics(summary);
            var trace = sample == null ? summarizer.summary()
                    : summarizer.summary().withRealized(c.plan().realizedRegret(sample.sampled()));
            String nothing = sample == null ? null : sample.nothingToReplay("--counterfactual-sample",
                    c.plan().routingPolicyName());
            if (nothing != null) {
                notes.accept(c.label() + ": " + nothing);
            }
            runs.add(new RunEvaluation(c.label(), summary.number("fitness"), raw, Features.of(summary, trace), trace));
        }
        return new Evaluation(candidate, runs);
    }
}
