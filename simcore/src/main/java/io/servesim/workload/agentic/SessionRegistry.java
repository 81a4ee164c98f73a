package io.servesim.workload.agentic;

import io.servesim.engine.Request;
import io.servesim.metrics.SessionRecord;
import io.servesim.metrics.SessionSink;
import it.unimi.dsi.fastutil.longs.Long2ObjectOpenHashMap;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.Consumer;

/**
 * The active agentic sessions of a workload and their deferred injection (BLIS agentic
 * specification, "SessionRegistry"): a session's root requests are emitted when it arrives; when
 * one of its requests leaves, the children it unblocks are created and injected with their arrival
 * time (now, or later when tool calls lie in between: a tool's completion time is known when it
 * starts, so the future arrival goes through the kernel's event queue like any other). Memory is
 * O(active sessions x workflow slots); a session is dropped from the map when its record is emitted.
 *
 * <p>A session ends completed (every terminal step done), cut_by_horizon (a step would arrive or a
 * tool finish after the horizon, or requests were still in flight at it), cut_by_limit
 * (num_requests reached), or dropped / rejected (one of its requests was; nothing further is
 * started). Its record is emitted once no request of it is in flight, or at the end of the run.
 */
public final class SessionRegistry {
    /** Request ids of the owning source; -1 once num_requests is reached. */
    @FunctionalInterface
    public interface RequestIds {
        long next();
    }

    private final Long2ObjectOpenHashMap<AgentSession> active = new Long2ObjectOpenHashMap<>();
    private final RequestIds ids;
    private final long horizonUs;
    private SessionSink sink = SessionSink.NONE;
    private Consumer<Request> out;

    /** @param horizonUs no step arrives or finishes after this time; 0 = none */
    public SessionRegistry(RequestIds ids, long horizonUs) {
        this.ids = ids;
        this.horizonUs = horizonUs;
    }

    /** Session records go to {@code sink} from now on. */
    public void reportTo(SessionSink sink) {
        this.sink = sink;
    }

    /** Starts session {@code sessionId} of {@code client} at {@code arrivalUs}; its root requests go to {@code roots}. */
    public void open(AgenticClient client, long sessionId, long arrivalUs, SplittableRandom rng, Consumer<Request> roots) {
        AgentSession s = new AgentSession(this, client, sessionId, arrivalUs, rng);
        active.put(sessionId, s);
        out = roots;
        s.start();
        settle(s);
    }

    /** A request of an agentic session left (completed, dropped or rejected): inject what it unblocks. */
    public void onLeft(Request r, long nowUs, Consumer<Request> inject) {
        AgentSession s = active.get(r.tags().sessionId());
        if (s == null) {
            throw new IllegalStateException("request " + r.id() + " of unknown agentic session " + r.tags().sessionId());
        }
        out = inject;
        s.onLeft(r, nowUs);
        settle(s);
    }

    /**
     * End of the run at {@code endUs}: sessions still active were cut by the horizon (in session id
     * order). Without a horizon cut none can remain (INV-A4: no stuck session).
     */
    public void endOfRun(long endUs, boolean horizonReached) {
        List<AgentSession> left = new ArrayList<>(active.values());
        left.sort(Comparator.comparingLong(s -> s.sessionId));
        for (AgentSession s : left) {
            if (!horizonReached) {
                throw new IllegalStateException("INV-A4: agentic session " + s.sessionId + " neither completed nor cut "
                        + "at the end of the run (" + s.inFlight + " requests in flight)");
            }
            s.end(SessionRecord.CUT_BY_HORIZON, "requests in flight at the horizon", endUs);
            record(s, endOf(s, endUs));
        }
        active.clear();
    }

    /** Sessions not yet ended. */
    public int activeSessions() {
        return active.size();
    }

    long nextRequestId() {
        return ids.next();
    }

    boolean beyondHorizon(long timeUs) {
        return horizonUs > 0 && timeUs > horizonUs;
    }

    long horizonUs() {
        return horizonUs;
    }

    void emit(Request r) {
        out.accept(r);
    }

    /** Emits the session's record once it has ended and nothing of it is in flight. */
    private void settle(AgentSession s) {
        if (s.status == null || s.inFlight > 0) {
            return;
        }
        record(s, endOf(s, s.failedAtUs));
        active.remove(s.sessionId);
    }

    /** When the session ended: its last completion, the horizon, its last request leaving, or its failure. */
    private long endOf(AgentSession s, long runEndUs) {
        return switch (s.status) {
            case SessionRecord.COMPLETED -> s.endUs;
            case SessionRecord.CUT_BY_HORIZON -> horizonUs > 0 ? horizonUs : runEndUs;
            case SessionRecord.CUT_BY_LIMIT -> Math.max(s.failedAtUs, s.lastLeftUs);
            default -> s.failedAtUs;
        };
    }

    private void record(AgentSession s, long endUs) {
        boolean done = SessionRecord.COMPLETED.equals(s.status);
        double queued = s.criticalPathUs == 0 ? 0 : (double) s.criticalPathQueuedUs / s.criticalPathUs;
        sink.accept(new SessionRecord(s.sessionId, s.client.clientId, s.client.spec.workflow(), s.status,
                done ? null : s.reason, s.arrivalUs, endUs, done ? endUs - s.arrivalUs : -1, s.steps, s.llmCalls,
                s.toolCalls, s.toolWaitUs, s.loopIterations, s.plannedIterations, s.fanOutCompleted, s.fanOutPlanned(),
                s.criticalPathUs, s.stepLatencySumUs, s.gpuQueuedUs, s.criticalPathQueuedUs, queued, s.inputTokens,
                s.outputTokens, s.prefixHitTokens));
    }
}
