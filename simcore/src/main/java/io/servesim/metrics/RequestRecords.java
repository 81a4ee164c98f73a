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
        boolean done = RequestRecord.COMPLETED.equals(status);
        long arrival = r.arrivalUs();
        long ttft = r.firstTokenUs() >= 0 ? r.firstTokenUs() - arrival : -1;
        long e2e = done ? r.completionUs() - arrival : -1;
        int out = r.generatedTokens();
        double itl = done && out > 1 ? (double) (r.completionUs() - r.firstTokenUs()) / (out - 1) : 0;
        long sched = r.firstScheduleUs() >= 0 ? r.firstScheduleUs() - arrival : -1;
        long queued = r.queueTimeUs();
        long completion = done || RequestRecord.DROPPED.equals(status) ? r.completionUs() : leftUs;
        var t = r.tags();
        return new RequestRecord(r.id(), r.instanceId(), t.clientId(), t.tenantId(), t.sloClass(), t.sessionId(),
                t.turnIndex(), r.priority(), r.streaming(), r.inputTokens(), out, r.outputTokens(),
                r.prefixHitTokensAllAdmissions(), r.preemptions(), arrival, r.enqueueUs(), r.firstScheduleUs(),
                r.firstTokenUs(), completion, ttft, e2e, itl, sched, queued, status, reason, r.lengthCapped(),
                t.stepId(), t.loopIteration(), t.fanOutIndex(), r.cpuHitTokensAllAdmissions(), r.sendUs(),
                since(r.clientFirstTokenUs(), r.sendUs()), since(r.clientCompletionUs(), r.sendUs()), handoff,
                Math.min(out, r.reasoningTokens()), r.firstAnswerTokenUs(), r.mediaTokens());
    }

    /** {@code timeUs - fromUs}, or -1 when {@code timeUs} is -1 (did not happen). */
    private static long since(long timeUs, long fromUs) {
        return timeUs < 0 ? -1 : timeUs - fromUs;
    }
}
