package io.servesim.metrics;

import io.servesim.engine.Request;

/** Builds the {@link RequestRecord} of a request leaving the system. */
final class RequestRecords {
    private RequestRecords() {
    }

    /**
     * @param status   record status
     * @param reason   drop or rejection reason, or null
     * @param leftUs   time it left when not completed/dropped by an engine (rejections), else -1
     * @param handoff  its P/D handoff, or {@link Handoff#NONE}
     */
    static RequestRecord of(Request r, String status, String reason, long leftUs, Handoff handoff) {
        return of(r, status, reason, leftUs, handoff, Long.MAX_VALUE);
    }

    /**
     * The record of a request still in the system at {@code horizonUs}. A step's tokens are sampled when the step is
     * priced, so a step in flight at the horizon has set times past it: a first token (server or client side, or the
     * first answer token) after the horizon was not seen and is absent, and with no first token seen no output token
     * was.
     */
    static RequestRecord unfinished(Request r, Handoff handoff, long horizonUs) {
        return of(r, RequestRecord.UNFINISHED, null, -1, handoff, horizonUs);
    }

    private static RequestRecord of(Request r, String status, String reason, long leftUs, Handoff handoff,
                                    long horizonUs) {
        boolean done = RequestRecord.COMPLETED.equals(status);
        long arrival = r.arrivalUs();
        long firstTokenUs = seenBy(r.firstTokenUs(), horizonUs);
        long ttft = firstTokenUs >= 0 ? firstTokenUs - arrival : -1;
        long e2e = done ? r.completionUs() - arrival : -1;
        int out = firstTokenUs >= 0 ? r.generatedTokens() : 0;
        double itl = done && out > 1 ? (double) (r.completionUs() - r.firstTokenUs()) / (out - 1) : 0;
        long sched = r.firstScheduleUs() >= 0 ? r.firstScheduleUs() - arrival : -1;
        long queued = r.queueTimeUs();
        long completion = done || RequestRecord.DROPPED.equals(status) ? r.completionUs() : leftUs;
        var t = r.tags();
        return new RequestRecord(r.id(), r.instanceId(), t.clientId(), t.tenantId(), t.sloClass(), t.sessionId(),
                t.turnIndex(), r.priority(), r.streaming(), r.inputTokens(), out, r.outputTokens(),
                r.prefixHitTokensAllAdmissions(), r.preemptions(), arrival, r.enqueueUs(), r.firstScheduleUs(),
                firstTokenUs, completion, ttft, e2e, itl, sched, queued, status, reason, r.lengthCapped(),
                t.stepId(), t.loopIteration(), t.fanOutIndex(), r.cpuHitTokensAllAdmissions(), r.sendUs(),
                since(seenBy(r.clientFirstTokenUs(), horizonUs), r.sendUs()), since(r.clientCompletionUs(), r.sendUs()),
                handoff, Math.min(out, r.reasoningTokens()), seenBy(r.firstAnswerTokenUs(), horizonUs), r.mediaTokens());
    }

    /** {@code timeUs}, or -1 when it is after {@code horizonUs} (not seen). */
    private static long seenBy(long timeUs, long horizonUs) {
        return timeUs > horizonUs ? -1 : timeUs;
    }

    /** {@code timeUs - fromUs}, or -1 when {@code timeUs} is -1 (did not happen). */
    private static long since(long timeUs, long fromUs) {
        return timeUs < 0 ? -1 : timeUs - fromUs;
    }
}
