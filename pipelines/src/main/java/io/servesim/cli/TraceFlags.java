package io.servesim.cli;

import io.servesim.config.ConfigException;
import io.servesim.decisions.DecisionSink;
import io.servesim.decisions.TraceLevel;
import io.servesim.decisions.TraceOptions;
import io.servesim.decisions.TraceSummarizer;
import io.servesim.decisions.TraceSummary;
import io.servesim.io.DecisionFile;
import io.servesim.io.OutputPath;
import java.io.IOException;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * The decision-trace flags of {@code run} (BLIS policy-optimization plan, PR 17-18): the level,
 * where the trace goes, counterfactual candidates and the summary. Every combination that would
 * build a trace nobody reads, or name an output with nothing to write, is refused up front.
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

    /** Opens the trace's destinations (call only when {@link #options()} is on). */
    Session open() {
        return new Session(out == null ? null : DecisionFile.open(out, "--trace-out"),
                summarize ? new TraceSummarizer(WORST_DECISIONS) : null);
    }

    /** The open destinations of one traced run. */
    static final class Session implements AutoCloseable {
        private final DecisionFile file;
        private final TraceSummarizer summarizer;

        private Session(DecisionFile file, TraceSummarizer summarizer) {
            this.file = file;
            this.summarizer = summarizer;
        }

        /** Where the run sends its decisions: the file, the summarizer, or both. */
        DecisionSink sink() {
            if (file == null) {
                return summarizer;
            }
            return summarizer == null ? file : d -> {
                file.accept(d);
                summarizer.accept(d);
            };
        }

        /** The summary, or {@code null} without {@code --summarize-trace}. */
        TraceSummary summary() {
            return summarizer == null ? null : summarizer.summary();
        }

        @Override
        public void close() throws IOException {
            if (file != null) {
                file.close();
            }
        }
    }
}
