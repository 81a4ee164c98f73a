package io.servesim.workload.agentic;

import io.servesim.engine.Request;
import io.servesim.engine.RequestTags;
import io.servesim.engine.TokenSequence;
import io.servesim.metrics.SessionRecord;
import io.servesim.rng.PartitionedRng;
import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * One running agentic session: per step-instance slot, the parents it still waits for, when it
 * became ready, the critical path leading to it and the tool-result tokens it inherits. A slot
 * starts when its last parent completes, at the latest parent completion (fan-in, started exactly
 * once); a tool slot completes at start + sampled latency right away (its time is known), an LLM
 * slot becomes a request arriving at its start and completes when the request leaves. Loop-body
 * slots are reset for each iteration, which starts at the previous iteration's last completion, its first steps'
 * prompts holding the results of the previous iteration's last tool calls.
 *
 * <p>Every draw of a slot comes from a stream seeded by (session, slot, iteration), so what a step
 * looks like does not depend on the order in which engine timing completes its siblings.
 */
final class AgentSession {
    final long sessionId;
    final AgenticClient client;
    final long arrivalUs;
    final int plannedIterations;
    private final SessionRegistry registry;
    private final WorkflowGraph g;
    private final long seed;
    private final int[] pending;
    private final boolean[] started;
    private final long[] readyUs;
    private final long[] doneUs;
    private final long[] readyPathUs;
    private final long[] readyPathQueuedUs;
    private final int[] carriedTokens;
    private final int[] resultTokens;
    private int iteration;
    private int bodyRemaining;
    private int outsideRemaining;
    private boolean loopDone;
    private long iterEndUs;
    private long iterPathUs;
    private long iterPathQueuedUs;
    private TokenSequence context;
    private int llmOrdinal;
    int inFlight;
    String status;
    String reason;
    long failedAtUs = -1;
    long lastLeftUs = -1;
    // ---- metrics ----
    long endUs;
    int steps;
    int llmCalls;
    int toolCalls;
    long toolWaitUs;
    int loopIterations;
    int fanOutCompleted;
    long criticalPathUs;
    long criticalPathQueuedUs;
    long stepLatencySumUs;
    long gpuQueuedUs;
    long inputTokens;
    long outputTokens;
    long prefixHitTokens;

    AgentSession(SessionRegistry registry, AgenticClient client, long sessionId, long arrivalUs, SplittableRandom rng) {
        this.registry = registry;
        this.client = client;
        this.g = client.graph;
        this.sessionId = sessionId;
        this.arrivalUs = arrivalUs;
        this.seed = rng.nextLong();
        LoopSpec loop = g.loop;
        this.plannedIterations = loop == null ? 0
                : loop.iterations() == null ? loop.maxIterations()
                : Math.max(1, Math.min(loop.maxIterations(), loop.iterations().sampleInt(rng)));
        int n = g.slots;
        pending = g.initialPending.clone();
        started = new boolean[n];
        readyUs = new long[n];
        Arrays.fill(readyUs, arrivalUs);
        doneUs = new long[n];
        Arrays.fill(doneUs, -1);
        readyPathUs = new long[n];
        readyPathQueuedUs = new long[n];
        carriedTokens = new int[n];
        resultTokens = new int[n];
        bodyRemaining = g.bodySlots;
        outsideRemaining = n - g.bodySlots;
        endUs = arrivalUs;
    }

    /** Starts the root slots (all arrive with the session). */
    void start() {
        for (int s : g.roots) {
            for (int j = 0; j < g.instances[s]; j++) {
                startSlot(s, j);
            }
        }
    }

    boolean failed() {
        return SessionRecord.DROPPED.equals(status) || SessionRecord.REJECTED.equals(status);
    }

    /** An LLM step request of this session left at {@code nowUs} (completed, dropped or rejected). */
    void onLeft(Request r, long nowUs) {
        inFlight--;
        lastLeftUs = nowUs;
        RequestTags t = r.tags();
        int s = g.indexOf(t.stepId());
        int j = t.fanOutIndex();
        int slot = g.slotBase[s] + j;
        if (r.state() != Request.State.COMPLETED) {
            boolean rejected = r.state() == Request.State.REJECTED;
            String why = rejected ? r.rejectReason()
                    : r.dropReason() == null ? null : r.dropReason().name().toLowerCase(java.util.Locale.ROOT);
            end(rejected ? SessionRecord.REJECTED : SessionRecord.DROPPED, describe(s, j, t.loopIteration()) + ": " + why,
                    nowUs);
            return;
        }
        llmCalls++;
        inputTokens += r.inputTokens();
        outputTokens += r.generatedTokens();
        prefixHitTokens += r.prefixHitTokens();
        long queued = r.firstScheduleUs() - r.arrivalUs();
        gpuQueuedUs += queued;
        if (g.accumulate[s]) {
            context = AgenticClient.append(r.input(), r.outputContentId(), r.generatedTokens());
        }
        if (failed()) {
            return;
        }
        assert !g.inLoop[s] || t.loopIteration() == iteration : "request of iteration " + t.loopIteration() + " in " + iteration;
        complete(s, j, slot, nowUs, readyPathUs[slot] + (nowUs - readyUs[slot]), readyPathQueuedUs[slot] + queued,
                nowUs - r.arrivalUs());
    }

    /** Ends the session with a non-completed {@code status} (the first reason wins). */
    void end(String why, String detail, long atUs) {
        if (status == null) {
            status = why;
            reason = detail;
            failedAtUs = atUs;
        }
    }

    private void startSlot(int s, int j) {
        int slot = g.slotBase[s] + j;
        assert !started[slot] : "step " + describe(s, j, iteration) + " started twice (fan-in must be injected once)";
        started[slot] = true;
        assert parentsDoneBy(s, j, readyUs[slot]);
        SplittableRandom rng = new SplittableRandom(PartitionedRng.mix64(seed ^ PartitionedRng.mix64(((long) iteration << 32) | slot)));
        long ready = readyUs[slot];
        if (g.types[s] == StepType.TOOL_CALL) {
            long latencyUs = g.tool[s].latencyUs().sampleLong(rng);
            assert latencyUs >= 0 : "negative tool latency " + latencyUs;
            int tokens = g.tool[s].outputTokens().sampleInt(rng);
            long toolDoneUs = ready + latencyUs;
            if (registry.beyondHorizon(toolDoneUs)) {
                end(SessionRecord.CUT_BY_HORIZON, describe(s, j, iteration) + " completes after the horizon", registry.horizonUs());
                return;
            }
            toolCalls++;
            toolWaitUs += latencyUs;
            resultTokens[slot] = carriedTokens[slot] + tokens;
            complete(s, j, slot, toolDoneUs, readyPathUs[slot] + latencyUs, readyPathQueuedUs[slot], latencyUs);
            return;
        }
        if (registry.beyondHorizon(ready)) {
            end(SessionRecord.CUT_BY_HORIZON, describe(s, j, iteration) + " arrives after the horizon", registry.horizonUs());
            return;
        }
        long requestId = registry.nextRequestId();
        if (requestId < 0) {
            end(SessionRecord.CUT_BY_LIMIT, "num_requests reached before " + describe(s, j, iteration), ready);
            return;
        }
        registry.emit(llmRequest(s, j, slot, requestId, ready, rng));
        inFlight++;
    }

    private Request llmRequest(int s, int j, int slot, long requestId, long arrival, SplittableRandom rng) {
        int fresh = g.input[s].sampleInt(rng) + carriedTokens[slot];
        int out = g.output[s].sampleInt(rng);
        if (client.maxOutputTokens > 0) {
            out = Math.min(out, client.maxOutputTokens);
        }
        long contentId = rng.nextLong();
        TokenSequence prompt = g.accumulate[s] && context != null ? AgenticClient.append(context, contentId, fresh)
                : client.prompt(contentId, fresh);
        double priority = client.priority.sample(rng);
        double p = client.streamingProbability;
        boolean streaming = p >= 1 || p > 0 && rng.nextDouble() < p;
        RequestTags tags = new RequestTags(client.clientId, client.tenantId, client.sloClass, sessionId, llmOrdinal++,
                g.ids[s], g.inLoop[s] ? iteration : -1, j);
        Request r = new Request(requestId, tags, prompt, out, client.maxOutputTokens, arrival, priority, streaming);
        if (g.accumulate[s]) {
            r.markOutputReusable();
        }
        return r;
    }

    private void complete(int s, int j, int slot, long atUs, long pathUs, long pathQueuedUs, long latencyUs) {
        doneUs[slot] = atUs;
        steps++;
        stepLatencySumUs += latencyUs;
        if (g.fanOut[s] > 1) {
            fanOutCompleted++;
        }
        if (pathUs > criticalPathUs) {
            criticalPathUs = pathUs;
            criticalPathQueuedUs = pathQueuedUs;
        }
        endUs = Math.max(endUs, atUs);
        for (int c : g.children[s]) {
            if (!g.inLoop[s] || g.inLoop[c]) {
                release(s, j, slot, c, atUs, pathUs, pathQueuedUs);
            }
        }
        if (g.inLoop[s]) {
            iterEndUs = Math.max(iterEndUs, atUs);
            if (pathUs > iterPathUs) {
                iterPathUs = pathUs;
                iterPathQueuedUs = pathQueuedUs;
            }
            if (--bodyRemaining == 0) {
                finishIteration();
            }
        } else {
            outsideRemaining--;
        }
        if (status == null && outsideRemaining == 0 && (g.loop == null || loopDone)) {
            assert inFlight == 0 : "completed session with requests in flight";
            status = SessionRecord.COMPLETED;
        }
    }

    /** Parent instance {@code pj} of step {@code p} completed: its waiting children instances of step {@code c} count it. */
    private void release(int p, int pj, int pslot, int c, long atUs, long pathUs, long pathQueuedUs) {
        int from = g.tree[c] ? pj * g.fanOut[c] : 0;
        int to = g.tree[c] ? from + g.fanOut[c] : g.instances[c];
        for (int j = from; j < to; j++) {
            int slot = g.slotBase[c] + j;
            assert !started[slot] && pending[slot] > 0 : "released " + describe(c, j, iteration) + " after it started";
            readyUs[slot] = Math.max(readyUs[slot], atUs);
            if (pathUs >= readyPathUs[slot]) {
                readyPathUs[slot] = pathUs;
                readyPathQueuedUs[slot] = pathQueuedUs;
            }
            if (g.types[p] == StepType.TOOL_CALL) {
                carriedTokens[slot] += resultTokens[pslot];
            }
            if (--pending[slot] == 0) {
                startSlot(c, j);
            }
        }
    }

    private void finishIteration() {
        loopIterations++;
        assert loopIterations <= plannedIterations && plannedIterations <= g.loop.maxIterations() : "loop ran past max_iterations";
        long end = iterEndUs;
        long path = iterPathUs;
        long queued = iterPathQueuedUs;
        iterEndUs = 0;
        iterPathUs = 0;
        iterPathQueuedUs = 0;
        if (loopIterations < plannedIterations) {
            int carry = unconsumedToolTokens();
            iteration++;
            bodyRemaining = g.bodySlots;
            for (int s = 0; s < g.ids.length; s++) {
                if (g.inLoop[s]) {
                    for (int slot = g.slotBase[s]; slot < g.slotBase[s] + g.instances[s]; slot++) {
                        started[slot] = false;
                        doneUs[slot] = -1;
                        pending[slot] = g.bodyPending[slot];
                        readyUs[slot] = end;
                        readyPathUs[slot] = path;
                        readyPathQueuedUs[slot] = queued;
                        carriedTokens[slot] = g.bodyPending[slot] == 0 ? carry : 0;
                    }
                }
            }
            for (int s = 0; s < g.ids.length; s++) {
                for (int j = 0; g.inLoop[s] && j < g.instances[s]; j++) {
                    if (g.bodyPending[g.slotBase[s] + j] == 0) {
                        startSlot(s, j);
                    }
                }
            }
            return;
        }
        loopDone = true;
        for (int s = 0; s < g.ids.length; s++) {
            for (int j = 0; g.inLoop[s] && j < g.instances[s]; j++) {
                for (int c : g.children[s]) {
                    if (!g.inLoop[c]) {
                        release(s, j, g.slotBase[s] + j, c, end, path, queued);
                    }
                }
            }
        }
    }

    /**
     * The result tokens of this iteration's tool calls that no step of the iteration took in: those of tool steps
     * with no child in the loop body (the iteration's last steps), every instance's. They join the prompts of the next
     * iteration's first steps, as an observation joins the next thought in ReAct (Yao et al., "ReAct: Synergizing
     * Reasoning and Acting in Language Models", ICLR 2023, section 2: the context after an action holds its
     * observation), and the prompts of the steps after the loop once it exits ({@link #release}).
     */
    private int unconsumedToolTokens() {
        int tokens = 0;
        for (int s = 0; s < g.ids.length; s++) {
            if (g.inLoop[s] && g.types[s] == StepType.TOOL_CALL && !hasChildInLoop(s)) {
                for (int slot = g.slotBase[s]; slot < g.slotBase[s] + g.instances[s]; slot++) {
                    tokens += resultTokens[slot];
                }
            }
        }
        return tokens;
    }

    private boolean hasChildInLoop(int s) {
        for (int c : g.children[s]) {
            if (g.inLoop[c]) {
                return true;
            }
        }
        return false;
    }

    /** INV-A1: every parent instance slot {@code (s, j)} waits for completed at or before {@code readyUs}. */
    private boolean parentsDoneBy(int s, int j, long readyUs) {
        for (int p : g.parents[s]) {
            for (int pj = 0; pj < g.instances[p]; pj++) {
                long done = doneUs[g.slotBase[p] + pj];
                if (g.waitsFor(s, j, p, pj) && (done < 0 || done > readyUs)) {
                    throw new IllegalStateException("INV-A1: " + describe(s, j, iteration) + " ready at " + readyUs
                            + " but parent " + describe(p, pj, iteration) + " completed at " + done);
                }
            }
        }
        return true;
    }

    private String describe(int s, int j, int iter) {
        return "step " + g.ids[s] + "[" + j + "]" + (g.inLoop[s] ? " iteration " + iter : "");
    }

    int fanOutPlanned() {
        return g.fanOutInstances(plannedIterations);
    }
}
