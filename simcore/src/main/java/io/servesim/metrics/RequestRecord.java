package io.servesim.metrics;

/**
 * One request's outcome, streamed to a {@link RecordSink} when it leaves (or at the horizon).
 * Times are microseconds of simulated time; -1 means "did not happen".
 *
 * @param requestId          id unique within the run
 * @param instanceId         instance that served it (-1 if never routed)
 * @param clientId           workload client
 * @param tenantId           tenant
 * @param sloClass           SLO class
 * @param sessionId          session id, -1 when none
 * @param turnIndex          turn within the session
 * @param priority           workload-assigned priority
 * @param streaming          streaming response
 * @param inputTokens        prompt tokens
 * @param outputTokens       output tokens generated
 * @param requestedOutputTokens output tokens the workload asked for
 * @param prefixHitTokens    prompt tokens served from the prefix cache, summed over the request's admissions (a
 *                           preempted request is admitted again; each admission's lookup counts)
 * @param preemptions        times it was preempted
 * @param arrivalUs          arrival at the instance
 * @param enqueueUs          entry into the engine core's scheduler (vLLM's QUEUED): arrival after the front end's
 *                           ingress and the latency model's queueing delay, or the end of the step then executing
 * @param firstScheduledUs   start of the first step that ran it
 * @param firstTokenUs       first output token visible to the client
 * @param completionUs       last output token visible (or drop time)
 * @param ttftUs             time to first token: firstToken - arrival
 * @param e2eUs              end to end: completion - arrival
 * @param meanItlUs          mean inter-token latency (TPOT): (completion - firstToken) / (outputTokens - 1); 0 for one token
 * @param schedulingDelayUs  firstScheduled - arrival (BLIS's scheduling delay)
 * @param queueingDelayUs    vLLM's queue time (scheduled_ts - queued_ts): from enqueue to the scheduler first deciding
 *                           to run it, firstScheduled or, under async scheduling, the start of the step before it
 * @param status             completed, dropped, rejected or unfinished
 * @param dropReason         why dropped or rejected, or null
 * @param lengthCapped       stopped early at max_model_len
 * @param stepId             agentic workflow step, or null when the request is not an agentic step
 * @param loopIteration      loop iteration (0-based) of an agentic step inside loop.over; -1 otherwise
 * @param fanOutIndex        instance of an agentic step (0 when not fanned out); -1 when not agentic
 * @param cpuHitTokens       of {@code prefixHitTokens}, those reloaded from the CPU KV tier (summed over admissions)
 * @param sendUs             when the client sent it: arrivalUs less the network's request leg
 * @param clientTtftUs       time to first token as the client sees it: receipt of the first token
 *                           (its own chunk when streaming, the whole response otherwise) - sendUs; -1 if none
 * @param clientE2eUs        end to end as the client sees it: receipt of the last token - sendUs; -1 unless completed
 * @param handoff            its P/D handoff (prefill and decode instances, KV transfer times); {@link Handoff#NONE} when
 *                           it was not disaggregated
 * @param reasoningTokens    of {@code outputTokens}, the leading ones that were reasoning (a reasoning client's)
 * @param firstAnswerTokenUs first answer token (the one after the reasoning tokens) visible; -1 if none
 * @param mediaTokens        of {@code inputTokens}, those of image, audio and video items (a multimodal client's)
 */
public record RequestRecord(long requestId, int instanceId, String clientId, String tenantId, String sloClass,
                            long sessionId, int turnIndex, double priority, boolean streaming,
                            int inputTokens, int outputTokens, int requestedOutputTokens, int prefixHitTokens,
                            int preemptions, long arrivalUs, long enqueueUs, long firstScheduledUs,
                            long firstTokenUs, long completionUs, long ttftUs, long e2eUs, double meanItlUs,
                            long schedulingDelayUs, long queueingDelayUs, String status, String dropReason,
                            boolean lengthCapped, String stepId, int loopIteration, int fanOutIndex,
                            int cpuHitTokens, long sendUs, long clientTtftUs, long clientE2eUs, Handoff handoff,
                            int reasoningTokens, long firstAnswerTokenUs, int mediaTokens) {
    public static final String COMPLETED = "completed";
    public static final String DROPPED = "dropped";
    public static final String UNFINISHED = "unfinished";
    public static final String REJECTED = "rejected";

    /** A record of a request that is not an agentic step. */
    public RequestRecord(long requestId, int instanceId, String clientId, String tenantId, String sloClass,
                         long sessionId, int turnIndex, double priority, boolean streaming,
                         int inputTokens, int outputTokens, int requestedOutputTokens, int prefixHitTokens,
                         int preemptions, long arrivalUs, long enqueueUs, long firstScheduledUs,
                         long firstTokenUs, long completionUs, long ttftUs, long e2eUs, double meanItlUs,
                         long schedulingDelayUs, long queueingDelayUs, String status, String dropReason,
                         boolean lengthCapped) {
        this(requestId, instanceId, clientId, tenantId, sloClass, sessionId, turnIndex, priority, streaming,
                inputTokens, outputTokens, requestedOutputTokens, prefixHitTokens, preemptions, arrivalUs, enqueueUs,
                firstScheduledUs, firstTokenUs, completionUs, ttftUs, e2eUs, meanItlUs, schedulingDelayUs,
                queueingDelayUs, status, dropReason, lengthCapped, null, -1, -1, 0, arrivalUs, ttftUs, e2eUs, Handoff.NONE,
                0, firstTokenUs, 0);
    }

    /** Time to first answer token: firstAnswerTokenUs - arrivalUs; -1 if no answer token. */
    public long ttfatUs() {
        return firstAnswerTokenUs < 0 ? -1 : firstAnswerTokenUs - arrivalUs;
    }

    /**
     * Time to first answer token as the client sees it: receipt of the first answer token - sendUs; -1 if no answer
     * token. Streaming, the answer token's chunk takes the response leg the first token's took (a leg depends on the
     * chunk's tokens only), so this is {@code clientTtftUs} plus the answer's lag behind the first token; otherwise
     * the whole response arrives at once and this is {@code clientTtftUs}.
     */
    public long clientTtfatUs() {
        if (firstAnswerTokenUs < 0 || clientTtftUs < 0) {
            return -1;
        }
        return streaming ? clientTtftUs + firstAnswerTokenUs - firstTokenUs : clientTtftUs;
    }

    /** Of {@code prefixHitTokens}, those found in the GPU cache. */
    public int gpuHitTokens() {
        return prefixHitTokens - cpuHitTokens;
    }
}
