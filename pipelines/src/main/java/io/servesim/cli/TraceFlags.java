package io.servesim.cli;

import io.servesim.config.ConfigException;
import io.servesim.decisions.DecisionSample;
import io.servesim.decisions.DecisionSink;
import io.servesim.decisions.TraceLevel;
import io.servesim.decisions.TraceOptions;
import io.servesim.decisions.TraceSummarizer;
import io.servesim.decisions.TraceSummary;
import io.servesim.io.DecisionFile;
import io.servesim.io.OutputPath;
import java.io.IOException;
import io.servesim.run.RunPlan;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;

/**
 * The decision-trace flags of {@code run} (BLIS macro plan, PR 17 and PR 18: inference-sim/inference-sim
 * @ 7d4e8bac, {@code docs/plans/2026-02-11-macro-implementation-plan-v2.md}): the level, where the trace
 * goes, counterfactual candidates and the summary. Every combination that would build a trace nobody
 * reads, or name an output with nothing to write, is refused up front.
 */
final class TraceFlags {
    /** Worst decisions kept in a summary. */
    static final int WORST_DECISIONS = 5;

    @Option(names = "--trace-level", paramLabel = "LEVEL",
            description = "none (default, no cost), decisions (every admission, priority, routing and preemption decision)"
                    + " or detailed (adds what the router saw)")
    String level = "none";

    @Option(names = "--trace-out", paramLabel = "FILE", description = "write the decision trace to FILE.parquet or FILE.jsonl")
    Path out;

    @Option(names = "--counterfactual-k", paramLabel = "K",
            description = "keep the top-K scored instances of each routing decision and its score regret (needs a trace level)")
    int counterfactualK;

    @Option(names = "--counterfactual-sample", paramLabel = "N",
            description = "re-simulate N sampled routing decisions (seeded by the run's seed) with the request sent to each"
                    + " other top-K candidate: realized regret in the trace summary (needs --summarize-trace, K >= 2;"
                    + " costs N x (K-1) + 1 extra runs)")
    int counterfactualSample;

    @Option(names = "--summarize-trace", description = "add a trace_summary (counts, regret, worst decisions, a text block"
            + " for an LLM prompt) to the JSON (needs a trace level)")
    boolean summarize;

    /** The options these flags ask for; throws {@link ConfigException} naming the flag for a bad combination. */
    TraceOptions options() {
        TraceLevel l;
        try {
            l = TraceLevel.of(level);
        } catch (IllegalArgumentException e) {
            throw new ConfigException("--trace-level", e.getMessage());
        }
        if (counterfactualK < 0) {
            throw new ConfigException("--counterfactual-k", "must be >= 0, got " + counterfactualK);
        }
        if (counterfactualSample < 0) {
            throw new ConfigException("--counterfactual-sample", "must be >= 0, got " + counterfactualSample);
        }
        if (counterfactualSample > 0 && (!summarize || counterfactualK < 2)) {
            throw new ConfigException("--counterfactual-sample", "needs --summarize-trace (where realized regret is"
                    + " reported) and --counterfactual-k >= 2 (the alternatives to re-simulate)");
        }
        if (l == TraceLevel.NONE && (out != null || summarize || counterfactualK > 0)) {
            throw new ConfigException("--trace-level", "--trace-out, --summarize-trace and --counterfactual-k need"
                    + " --trace-level decisions or detailed");
        }
        if (l != TraceLevel.NONE && out == null && !summarize) {
            throw new ConfigException("--trace-level", "a trace needs --trace-out FILE or --summarize-trace");
        }
        if (out != null) {
            OutputPath.checkFile("--trace-out", out);
        }
        return new TraceOptions(l, counterfactualK);
    }

    /**
     * Opens the trace's destinations (call only when {@link #options()} is on): the decisions go to {@code file} (the
     * staged stand-in for {@code --trace-out}, or null without it); {@code seed} seeds the sample.
     */
    Session open(long seed, Path file) {
        return new Session(file == null ? null : DecisionFile.open(file, "--trace-out"),
                summarize ? new TraceSummarizer(WORST_DECISIONS) : null,
                counterfactualSample > 0 ? new DecisionSample(counterfactualSample, seed) : null);
    }

    /** The open destinations of one traced run. */
    static final class Session implements AutoCloseable {
        private final DecisionFile file;
        private final TraceSummarizer summarizer;
        private final DecisionSample sample;

        private Session(DecisionFile file, TraceSummarizer summarizer, DecisionSample sample) {
            this.file = file;
            this.summarizer = summarizer;
            this.sample = sample;
        }

        /** Where the run sends its decisions: each of the file, the summarizer and the sample that is open. */
        DecisionSink sink() {
            List<DecisionSink> sinks = new ArrayList<>();
            for (DecisionSink s : new DecisionSink[] {file, summarizer, sample}) {
                if (s != null) {
                    sinks.add(s);
                }
            }
            return sinks.size() == 1 ? sinks.get(0) : d -> sinks.forEach(s -> s.accept(d));
        }

        /**
         * The summary, with the realized regret of the sampled decisions when sampling ({@code plan}
         * re-simulates them); {@code null} without {@code --summarize-trace}.
         */
        TraceSummary summary(RunPlan plan) {
            if (summarizer == null) {
                return null;
            }
            TraceSummary s = summarizer.summary();
            return sample == null ? s : s.withRealized(plan.realizedRegret(sample.sampled()));
        }

        /** {@link DecisionSample#nothingToReplay} of the sample, or null when not sampling. */
        String nothingToReplay(RunPlan plan) {
            return sample == null ? null : sample.nothingToReplay("--counterfactual-sample",
                    plan.routingPolicyName());
        }

        @Override
        public void close() throws IOException {
            if (file != null) {
                file.close();
            }
        }
    }
}
