package io.servesim.workload;

import io.servesim.config.ConfigException;
import io.servesim.engine.Request;
import io.servesim.engine.RequestTags;
import it.unimi.dsi.fastutil.longs.Long2ObjectOpenHashMap;
import io.servesim.metrics.SessionSink;
import io.servesim.workload.agentic.SessionRegistry;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.PriorityQueue;
import java.util.function.Consumer;

/**
 * Generates a {@link GeneratorSpec}'s requests lazily, in arrival order: a k-way merge of the
 * clients' streams (ties broken by client order), plus closed-loop follow-up turns injected when
 * a conversation's turn completes, and agentic workflow steps injected by a {@link SessionRegistry}
 * when their parents complete (only an agentic session's root steps come from the merge). State is O(clients + active sessions + network reorder window),
 * never O(requests), so million-request workloads run in bounded memory.
 *
 * <p>Request ids and session ids are assigned in emission order. {@code num_requests} counts every
 * request, follow-up turns included: once reached, no further arrival or turn is generated (running
 * sessions end early).
 *
 * <p>A staged load ({@link Stage}) sends one stage at a time: each client runs at its share of the stage's rate
 * until the stage's end; then, once every request made so far has left (follow-up turns and agentic steps included),
 * the next stage starts {@code stage_interval_us} after the later of that moment and the stage's end, as
 * inference-perf waits for a stage's requests to finish before the next ({@code load_generator.py} {@code run_stage}).
 * Until then {@link #next()} gives nothing and {@link #resumed()} tells the simulation when it has requests again.
 */
public final class GeneratorSource implements RequestSource {
    private final long maxRequests;
    private final long horizonUs;
    private final PriorityQueue<ClientStream> heads =
            new PriorityQueue<>(Comparator.comparingLong((ClientStream c) -> c.peek().arrivalUs).thenComparingInt(c -> c.index));
    private final Long2ObjectOpenHashMap<Session> sessions = new Long2ObjectOpenHashMap<>();
    /** Agentic sessions, or null when no client is agentic (then nothing agentic costs anything). */
    private final SessionRegistry agentic;
    /** Root requests of an agentic session beyond its first, all at the session's arrival time. */
    private final ArrayDeque<Request> roots = new ArrayDeque<>();
    private long nextRequestId;
    private long nextSessionId;
    private long produced;
    /** Staged load: the stages, every client's stream, the stage being sent and when it ends; else empty and unused. */
    private final List<Stage> stages;
    private final long stageIntervalUs;
    private final List<ClientStream> streams = new ArrayList<>();
    private int stage;
    private long stageEndUs;
    /** Requests made and not yet left (counted only for a staged load, whose stages drain). */
    private long inFlight;
    /** A stage's arrivals are done and it waits for its requests to leave before the next one starts. */
    private boolean draining;
    /** The next stage started after {@link #next()} had given nothing ({@link #resumed()}). */
    private boolean resumed;

    GeneratorSource(GeneratorSpec spec, long seed, long horizonUs) {
        this.maxRequests = spec.numRequests();
        this.horizonUs = horizonUs;
        this.stages = spec.stages();
        this.stageIntervalUs = spec.stageIntervalUs();
        List<ClientSpec> clients = spec.clients();
        boolean anyAgentic = clients.stream().anyMatch(c -> c.agentic() != null);
        this.agentic = anyAgentic ? new SessionRegistry(this::reserveRequestId, horizonUs) : null;
        boolean staged = !stages.isEmpty();
        for (int i = 0; i < clients.size(); i++) {
            ClientSpec c = clients.get(i);
            ClientStream s = new ClientStream(c, i, spec.aggregateRateRps() * c.rateFraction(), seed, horizonUs, staged);
            streams.add(s);
            if (!staged && s.peek() != null) {
                heads.add(s);
            }
        }
        if (staged) {
            startStage(0, 0);
        }
    }

    /** Starts stage {@code i} at {@code startUs}: every client at its share of the stage's rate until its end. */
    private void startStage(int i, long startUs) {
        Stage st = stages.get(i);
        stage = i;
        stageEndUs = startUs + st.durationUs();
        for (ClientStream s : streams) {
            s.startStage(st.rateRps() * s.spec.rateFraction(), startUs, stageEndUs);
            if (s.peek() != null) {
                heads.add(s);
            }
        }
    }

    @Override
    public Request next() {
        if (!roots.isEmpty()) {
            return roots.poll();
        }
        if (limitReached()) {
            return null;
        }
        ClientStream c = heads.poll();
        while (c == null) {
            refuseArrivalsPastSimulatedTime();
            if (stages.isEmpty() || stage == stages.size() - 1) {
                return null;
            }
            if (inFlight > 0) {
                draining = true; // resumed when the last request out leaves (onLeft)
                return null;
            }
            // nothing out: the stage drained by its end
            startStage(stage + 1, stageEndUs + stageIntervalUs);
            c = heads.poll();
        }
        Draft d = c.poll();
        if (c.peek() != null) {
            heads.add(c);
        }
        if (horizonUs > 0 && d.arrivalUs > horizonUs) {
            heads.clear();
            return null;
        }
        return emit(d);
    }

    /**
     * No client has an arrival left: a client whose arrivals ended by passing the simulated time a run may span, while
     * the workload still wants requests, is a workload too sparse to simulate (refused, naming it), not one that ended.
     */
    private void refuseArrivalsPastSimulatedTime() {
        for (ClientStream s : streams) {
            if (!Double.isNaN(s.passedSimulatedTimeAtUs())) {
                throw new ConfigException("workload", String.format(Locale.ROOT, "client '%s' would send a request at"
                        + " %.3g s, past the simulated time a run may span (%s), before the workload's %s: its arrivals"
                        + " are too sparse for the requests asked; raise the rate, or lower num_requests, or set"
                        + " horizon_us", s.spec.id(), s.passedSimulatedTimeAtUs() / 1e6, WorkloadSettings.SIMULATED_TIME,
                        maxRequests > 0 ? maxRequests + " requests" : "end"));
            }
        }
    }

    private Request emit(Draft d) {
        if (d.client.agentic != null) {
            agentic.open(d.client.agentic, nextSessionId++, d.arrivalUs, d.sessionRng, roots::add);
            return roots.poll();
        }
        RequestTags tags = d.client.tags;
        if (d.sessionRng != null) {
            long sid = nextSessionId++;
            tags = new RequestTags(tags.clientId(), tags.tenantId(), tags.sloClass(), sid, 0);
            if (d.sessionTurns > 1) {
                sessions.put(sid, new Session(sid, d.client, d.sessionRng, d.sessionTurns));
            }
        }
        produced++;
        inFlight++;
        Request r = new Request(nextRequestId++, tags, d.prompt, d.outputTokens, d.client.spec.maxOutputTokens(),
                d.arrivalUs, d.priority, d.streaming);
        if (d.client.responseDelayUs != null) {
            r.setClientNetwork(d.sendUs, d.client.responseDelayUs);
        }
        r.setReasoningTokens(d.reasoningTokens);
        r.setMedia(d.media);
        if (d.sessionTurns > 1 && d.client.spec.conversation().accumulate()) {
            r.markOutputReusable();
        }
        return r;
    }

    /**
     * Injects the next turn of {@code r}'s conversation if {@code r} completed and turns remain; an
     * agentic step goes to the session registry.
     */
    @Override
    public void onLeft(Request r, long nowUs, Consumer<Request> inject) {
        inFlight--;
        if (r.tags().stepId() != null) {
            agentic.onLeft(r, nowUs, inject);
        } else {
            nextTurn(r, inject);
        }
        if (draining && inFlight == 0) {
            draining = false;
            startStage(stage + 1, Math.max(nowUs, stageEndUs) + stageIntervalUs);
            resumed = true;
        }
    }

    /** Injects the next turn of {@code r}'s conversation, if any. */
    private void nextTurn(Request r, Consumer<Request> inject) {
        long sid = r.tags().sessionId();
        Session s = sid < 0 ? null : sessions.get(sid);
        if (s == null) {
            return;
        }
        if (r.state() != Request.State.COMPLETED || limitReached()) {
            sessions.remove(sid);
            return;
        }
        Request next = s.nextTurn(r, nextRequestId);
        if (s.done()) {
            sessions.remove(sid);
        }
        if (horizonUs > 0 && next.arrivalUs() > horizonUs) {
            sessions.remove(sid);
            return;
        }
        nextRequestId++;
        produced++;
        inFlight++;
        inject.accept(next);
    }

    @Override
    public boolean resumed() {
        boolean r = resumed;
        resumed = false;
        return r;
    }

    @Override
    public void reportSessionsTo(SessionSink sink) {
        if (agentic != null) {
            agentic.reportTo(sink);
        }
    }

    @Override
    public void endOfRun(long endUs, boolean horizonReached) {
        if (agentic != null) {
            agentic.endOfRun(endUs, horizonReached);
        }
    }

    /** Conversations with turns still to come plus agentic sessions not yet ended. */
    public int activeSessions() {
        return sessions.size() + (agentic == null ? 0 : agentic.activeSessions());
    }

    /** The next request id, counted against num_requests; -1 once it is reached. */
    private long reserveRequestId() {
        if (limitReached()) {
            return -1;
        }
        produced++;
        inFlight++;
        return nextRequestId++;
    }

    /** Drafts generated ahead of emission across clients (the network reorder windows). */
    public int bufferedDrafts() {
        int n = 0;
        for (ClientStream c : heads) {
            n += c.pendingDrafts();
        }
        return n;
    }

    private boolean limitReached() {
        return maxRequests > 0 && produced >= maxRequests;
    }
}
