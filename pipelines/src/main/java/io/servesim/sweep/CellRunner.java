package io.servesim.sweep;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.servesim.decisions.DecisionRecord;
import io.servesim.metrics.RecordSink;
import io.servesim.metrics.ReplicaCounts;
import io.servesim.metrics.RequestRecord;
import io.servesim.metrics.RunSummary;
import io.servesim.metrics.SessionRecord;
import io.servesim.metrics.SessionSink;
import io.servesim.run.RunPlan;
import io.servesim.run.SimConfigLoader;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs one cell on the unchanged single-threaded kernel: binds its resolved config exactly as
 * {@code servesim run} would, runs it once, and keeps its records in memory so that a cell that
 * throws half-way leaves no partial rows behind (its records are discarded and it becomes an
 * {@code errors} row instead). Plain Java, no Beam: the serial benchmark and {@link RunCellFn} share it.
 */
public final class CellRunner {
    private static final ObjectMapper JSON = new ObjectMapper();

    private CellRunner() {
    }

    /**
     * A finished cell.
     *
     * @param summary   the run's aggregates
     * @param requests  every request record, in the order the kernel emitted them (empty unless kept)
     * @param sessions  every agentic session record, in the order the kernel emitted them (empty unless kept)
     * @param decisions policy decisions (empty unless traced)
     * @param scaling   the replica timeline (empty unless kept)
     */
    public record Outcome(RunSummary summary, List<RequestRecord> requests, List<SessionRecord> sessions,
                          List<DecisionRecord> decisions, List<ReplicaCounts> scaling) {
    }

    /** Binds and validates the cell's config; throws {@code ConfigException} naming every bad path. */
    public static RunPlan plan(Cell cell) {
        try {
            return RunPlan.prepare(SimConfigLoader.bind(JSON.readTree(cell.configJson()), Path.of(cell.baseDir())));
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Runs the cell, keeping the records of the datasets {@code outputs} writes. */
    public static Outcome run(Cell cell, SweepOutputs outputs) {
        RunPlan plan = plan(cell);
        List<RequestRecord> requests = new ArrayList<>();
        List<SessionRecord> sessions = new ArrayList<>();
        List<DecisionRecord> decisions = new ArrayList<>();
        RecordSink requestSink = outputs.requests() ? requests::add : RecordSink.NONE;
        SessionSink sessionSink = outputs.sessions() ? sessions::add : SessionSink.NONE;
        RunSummary summary = plan.run(requestSink, sessionSink, decisions::add, outputs.trace());
        return new Outcome(summary, requests, sessions, decisions,
                outputs.scaling() ? summary.autoscaling().timeline() : List.of());
    }
}
