package io.servesim.engine;

import it.unimi.dsi.fastutil.ints.IntArrayList;
import java.util.function.IntToLongFunction;

/**
 * One inference request and its progress through a vLLM-style engine (vLLM v1 {@code Request}).
 *
 * <p>Identity and workload fields are fixed at creation; progress fields change as the engine
 * schedules it. {@code computedTokens} counts prompt and generated tokens whose KV is in the cache
 * (vLLM's {@code num_computed_tokens}); it is reset to 0 on preemption (recompute mode). The
 * request's token sequence is its prompt followed by its output, the output being one segment of
 * content {@link #outputContentId()} so a later conversational turn that repeats it hits the cache.
 *
 * <p>Timestamps are microseconds of simulated time; {@code -1} means "not yet".
 */
public final class Request {
    /** Lifecycle states; {@code status} of the record derives from these. */
    public enum State { PENDING, QUEUED, RUNNING, COMPLETED, DROPPED, REJECTED }

    static final long ROOT_HASH = 0x5E5E_51A1_0000_0001L;

    // ---- identity (immutable) ----
    private final long id;
    private final RequestTags tags;
    private final TokenSequence input;
    /** {@code input.length()} and {@code input.sharedTokens()}, copied so the per-step paths stay on this object. */
    private final int inputLength;
    private final int sharedInputTokens;
    private final int outputTokens;
    private final int maxOutputTokens;
    private final long arrivalUs;
    private final double priority;
    private final boolean streaming;
    private final long outputContentId;
    private boolean outputReusable;
    /** Of the output tokens, the leading ones that are reasoning (a reasoning model's thinking); 0 for none. */
    private int reasoningTokens;
    /** The prompt's image, audio and video items (a multimodal client's), or null for a text prompt. */
    private MediaItems media;
    /** Encoder items and their tokens step {@link #encoderStep} of its engine ran for this request ({@link EncoderInputs}). */
    int encoderStepItems;
    int encoderStepTokens;
    int encoderStepHits;
    long encoderStep = -1;
    /** Of its items, those step {@link #encoderStep} encoded (the first {@link #encoderStepItems}). */
    int[] encoderStepEncoded;
    /** When the client sent it ({@link #arrivalUs} without a client network). */
    private long sendUs;
    /** Response leg: microseconds for a chunk of n output tokens to reach the client, or null (none). */
    private IntToLongFunction responseDelayUs;

    // ---- progress (engine-owned; while running, computedTokens, generatedTokens, lengthCapped,
    // lastStepEndUs and lastTokenUs live in the RunningBatch slot and are synced back on leaving it) ----
    State state = State.PENDING;
    int computedTokens;
    int generatedTokens;
    int prefixHitTokens;
    /** Of {@code prefixHitTokens}, those reloaded from the CPU tier. */
    int cpuHitTokens;
    /** {@code prefixHitTokens} summed over every admission (a preempted request is admitted again). */
    int prefixHitTokensAllAdmissions;
    /** {@code cpuHitTokens} summed over every admission. */
    int cpuHitTokensAllAdmissions;
    /** Tokens a completed blocking reload brought back, until the request's next admission (else 0). */
    int reloadedTokens;
    int preemptions;
    boolean lengthCapped;
    DropReason dropReason;
    private String rejectReason;
    long lastStepEndUs = -1;
    /** When the engine core's scheduler took the request in (vLLM's {@code QUEUED} event), or -1. */
    long enqueueUs = -1;
    /** Start of the first step that ran the request, or -1. */
    long firstScheduleUs = -1;
    /**
     * When the scheduler first decided to run the request (vLLM's {@code SCHEDULED} event): {@link #firstScheduleUs},
     * or under async scheduling the start of the step before it when the two ran back to back; -1 if never.
     */
    long scheduledUs = -1;
    long firstTokenUs = -1;
    /** When the first answer token (the one after the reasoning tokens) became visible, or -1. */
    long firstAnswerTokenUs = -1;
    long completionUs = -1;
    long lastTokenUs = -1;
    int instanceId = -1;
    double priorityScore;
    long waitOrder;
    /**
     * The request's leading KV blocks by position: block ids, or -1 for an anonymous block (content
     * nobody indexed). The KV cache lists a block here once it registers or hits it; the blocks after
     * them are all anonymous and only counted ({@link #anonymousTail}), so allocating and freeing the
     * bulk of a request's blocks touches no list.
     */
    final IntArrayList blocks = new IntArrayList(4);
    /** Anonymous blocks held after the listed {@link #blocks}. */
    int anonymousTail;
    /** Tokens the held blocks can store: {@code heldBlocks() x blockSize} (kept by the KV cache). */
    int blockTokens;
    /** Number of this request's leading blocks already registered in the prefix index. */
    int registeredBlocks;
    /** SGLang core: the last node of the radix-tree path this request locks (its prefix), or null ({@link RadixCache}). */
    RadixCache.Node radixNode;
    private long[] blockHashes = new long[0];
    private int hashedBlocks;

    // ---- P/D disaggregation (io.servesim.disagg) ----
    /** A prefill-stage copy: its engine keeps its KV blocks at completion for the transfer ({@link #prefillStage}). */
    private boolean prefillOnly;
    /** Waiting on a decode instance with its prompt's KV transferred and its blocks held ({@link Engine#onKvReceived}). */
    boolean kvResident;
    /** When a request handed off with its KV was admitted on its decode instance, or -1. */
    long kvAdmitUs = -1;

    public Request(long id, RequestTags tags, TokenSequence input, int outputTokens, int maxOutputTokens,
                   long arrivalUs, double priority, boolean streaming) {
        if (outputTokens < 0 || maxOutputTokens < 0) {
            throw new IllegalArgumentException("negative output length for request " + id);
        }
        this.id = id;
        this.tags = tags;
        this.input = input;
        this.inputLength = input.length();
        this.sharedInputTokens = input.sharedTokens();
        this.outputTokens = outputTokens;
        this.maxOutputTokens = maxOutputTokens;
        this.arrivalUs = arrivalUs;
        this.sendUs = arrivalUs;
        this.priority = priority;
        this.streaming = streaming;
        this.outputContentId = io.servesim.rng.PartitionedRng.mix64(id ^ 0x6F75_7470_7574L);
    }

    public long id() { return id; }
    public RequestTags tags() { return tags; }
    public TokenSequence input() { return input; }
    public int inputTokens() { return inputLength; }
    /** Prompt tokens whose content other requests may share ({@link TokenSequence#sharedTokens()}). */
    public int sharedInputTokens() { return sharedInputTokens; }
    /** Output tokens this request generates when not cut short (the trace's or sampled length). */
    public int outputTokens() { return outputTokens; }
    /** The client's output budget ({@code max_tokens}); 0 when none was given. */
    public int maxOutputTokens() { return maxOutputTokens; }
    /** Arrival at the cluster (the server side's time zero). */
    public long arrivalUs() { return arrivalUs; }
    /** When the client sent the request: {@link #arrivalUs()} less the request leg of its network. */
    public long sendUs() { return sendUs; }

    /**
     * The client's network: sent at {@code sendUs}, its responses take {@code responseDelayUs} (output
     * tokens of a chunk to microseconds) to reach the client. Set by the workload before arrival.
     */
    public void setClientNetwork(long sendUs, IntToLongFunction responseDelayUs) {
        if (sendUs > arrivalUs) {
            throw new IllegalArgumentException("request " + id + " sent at " + sendUs + " after its arrival " + arrivalUs);
        }
        this.sendUs = sendUs;
        this.responseDelayUs = responseDelayUs;
    }

    /** Whether the workload gave this request a client network ({@link #setClientNetwork}). */
    public boolean hasClientNetwork() {
        return responseDelayUs != null;
    }

    /** Microseconds a response chunk of {@code outputTokens} takes to reach the client (0 without a network). */
    public long responseDelayUs(int outputTokens) {
        return responseDelayUs == null ? 0 : responseDelayUs.applyAsLong(outputTokens);
    }

    /**
     * When the client receives the first token, or -1: with the first token's chunk when streaming,
     * with the whole response at completion otherwise.
     */
    public long clientFirstTokenUs() {
        if (streaming) {
            return firstTokenUs < 0 ? -1 : firstTokenUs + responseDelayUs(1);
        }
        return clientCompletionUs();
    }

    /** When the client receives the last token of a completed request, or -1. */
    public long clientCompletionUs() {
        if (state != State.COMPLETED) {
            return -1;
        }
        return completionUs + responseDelayUs(streaming ? 1 : generatedTokens);
    }
    /** Workload-assigned priority (higher is more important); priority policies may use it. */
    public double priority() { return priority; }
    public boolean streaming() { return streaming; }
    /** Content id of this request's generated tokens (one segment). */
    public long outputContentId() { return outputContentId; }

    /**
     * Marks the first {@code tokens} of the output as reasoning (a reasoning model thinks first, then answers): the
     * engine records when the first answer token, output token {@code tokens + 1}, becomes visible.
     */
    public void setReasoningTokens(int tokens) {
        if (tokens < 0 || tokens > outputTokens) {
            throw new IllegalArgumentException("reasoning tokens " + tokens + " outside [0, " + outputTokens
                    + "] for request " + id);
        }
        this.reasoningTokens = tokens;
    }

    /** Marks the prompt's image, audio and video items (placeholder tokens of a multimodal prompt); null for none. */
    public void setMedia(MediaItems items) {
        if (items != null && items.end() > inputLength) {
            throw new IllegalArgumentException("media items end at token " + items.end() + ", beyond the prompt's "
                    + inputLength + " tokens, for request " + id);
        }
        this.media = items == null || items.count() == 0 ? null : items;
    }

    /** The prompt's image, audio and video items, or null for a text prompt. */
    public MediaItems media() { return media; }

    /** Prompt tokens of image, audio and video items; 0 for a text prompt. */
    public int mediaTokens() { return media == null ? 0 : media.tokens(); }

    /** Leading output tokens that are reasoning, not answer; 0 for a request without reasoning. */
    public int reasoningTokens() { return reasoningTokens; }

    /** The generated-token count at whose sampling the first answer token appears. */
    int answerAt() { return reasoningTokens + 1; }

    /** When the first answer token became visible (the first token without reasoning); -1 if none did. */
    public long firstAnswerTokenUs() { return firstAnswerTokenUs; }

    /**
     * True when another request may later repeat this request's prompt and output (a conversation
     * or agent session whose next turn accumulates context): then all its full blocks are indexed
     * for prefix caching while it runs. Otherwise only the prompt's shared part is; the rest can
     * never be hit by another request and is indexed only if it is preempted (so its own
     * recomputation hits it, as in vLLM).
     */
    public boolean outputReusable() { return outputReusable; }

    /** Marks the output as reusable by later requests (set by session workloads before arrival). */
    public void markOutputReusable() { this.outputReusable = true; }

    /**
     * The prefill stage of this request for P/D disaggregation: the same prompt (so the same block
     * hashes) with {@code max_tokens} 1, as the Dynamo mocker's disaggregated harness runs a hidden
     * one-token bootstrap request on the prefill worker ({@code lib/mocker/src/replay/offline/disagg.rs})
     * and vLLM's P/D proxy sends the prefill instance the request with {@code max_tokens=1}. Its engine
     * keeps its KV blocks at completion until {@link Engine#releaseHandedOff} (the KV transfer's source).
     */
    public Request prefillStage() {
        Request b = new Request(id, tags, input, 1, 1, arrivalUs, priority, streaming);
        b.outputReusable = outputReusable;
        b.media = media;
        b.prefillOnly = true;
        b.priorityScore = priorityScore;
        return b;
    }

    /** Whether this is a prefill-stage copy ({@link #prefillStage}). */
    public boolean prefillOnly() { return prefillOnly; }

    /**
     * Takes over the progress of its completed prefill stage {@code b}: the first token, its timing and
     * the prefix hits there; the prompt's KV is computed (it is transferred, then held on the decode
     * instance).
     */
    public void continueAfterPrefill(Request b) {
        enqueueUs = b.enqueueUs;
        firstScheduleUs = b.firstScheduleUs;
        scheduledUs = b.scheduledUs;
        firstTokenUs = b.firstTokenUs;
        lastTokenUs = b.lastTokenUs;
        lastStepEndUs = b.lastStepEndUs;
        prefixHitTokens = b.prefixHitTokens;
        cpuHitTokens = b.cpuHitTokens;
        prefixHitTokensAllAdmissions = b.prefixHitTokensAllAdmissions;
        cpuHitTokensAllAdmissions = b.cpuHitTokensAllAdmissions;
        generatedTokens = b.generatedTokens;
        if (generatedTokens >= answerAt()) {
            firstAnswerTokenUs = b.firstTokenUs; // no reasoning: the prefill stage's token is the first answer token
        }
        preemptions = b.preemptions;
        computedTokens = inputLength;
    }

    /** Its prefill stage {@code b} was dropped by the prefill instance: so is this request, for the same reason. */
    public void droppedWith(Request b) {
        state = State.DROPPED;
        dropReason = b.dropReason;
        enqueueUs = b.enqueueUs;
        completionUs = b.completionUs;
        instanceId = b.instanceId;
    }

    /** When this request, handed off with its KV, was admitted on its decode instance; -1 if it was not. */
    public long kvAdmitUs() { return kvAdmitUs; }

    public State state() { return state; }
    public int computedTokens() { return computedTokens; }
    public int generatedTokens() { return generatedTokens; }
    /** Prompt tokens served from the prefix cache (either tier) at the latest admission. */
    public int prefixHitTokens() { return prefixHitTokens; }
    /** Of {@link #prefixHitTokens()}, those found in the CPU tier and reloaded. */
    public int cpuHitTokens() { return cpuHitTokens; }
    /** Of {@link #prefixHitTokens()}, those found on the GPU. */
    public int gpuHitTokens() { return prefixHitTokens - cpuHitTokens; }
    /**
     * Prompt tokens served from the prefix cache (either tier) summed over every admission: a preempted request's
     * readmissions count too, so a reload from the CPU tier that served one is not lost (vLLM counts each
     * admission's lookup, readmissions under {@code PrefixCacheStats.preempted_hits}).
     */
    public int prefixHitTokensAllAdmissions() { return prefixHitTokensAllAdmissions; }
    /** Of {@link #prefixHitTokensAllAdmissions()}, those found in the CPU tier and reloaded. */
    public int cpuHitTokensAllAdmissions() { return cpuHitTokensAllAdmissions; }

    /** The admission that just completed adds its hits to the sums over admissions. */
    void countAdmissionHits() {
        prefixHitTokensAllAdmissions += prefixHitTokens;
        cpuHitTokensAllAdmissions += cpuHitTokens;
    }
    public int preemptions() { return preemptions; }
    public boolean lengthCapped() { return lengthCapped; }
    /** Why admission rejected the request, or null. */
    public String rejectReason() { return rejectReason; }

    /** Admission rejected the request (control plane); it never reaches an instance. */
    public void reject(String reason) {
        this.state = State.REJECTED;
        this.rejectReason = reason;
    }

    /** Why the request was dropped, or null. */
    public DropReason dropReason() { return dropReason; }
    /** Client-visible time of the latest output token, or -1. */
    public long lastTokenUs() { return lastTokenUs; }
    public long enqueueUs() { return enqueueUs; }
    public long firstScheduleUs() { return firstScheduleUs; }
    /** When the scheduler first decided to run the request (vLLM's {@code SCHEDULED}), or -1 ({@link #scheduledUs}). */
    public long scheduledUs() { return scheduledUs; }

    /**
     * vLLM's queue time ({@code vllm:request_queue_time_seconds}, {@code scheduled_ts - queued_ts}): from the scheduler
     * taking the request in to its first deciding to run it; -1 if either did not happen.
     */
    public long queueTimeUs() { return scheduledUs >= 0 && enqueueUs >= 0 ? scheduledUs - enqueueUs : -1; }
    public long firstTokenUs() { return firstTokenUs; }
    public long completionUs() { return completionUs; }
    public int instanceId() { return instanceId; }
    /** Time-invariant priority rank assigned by the control plane's priority policy (higher first). */
    public double priorityScore() { return priorityScore; }

    /** Sets the rank (control plane, at admission). */
    public void assignPriority(double rankKey) { this.priorityScore = rankKey; }
    public int heldBlocks() { return blocks.size() + anonymousTail; }
    /** Enqueue sequence number at this request's instance (FIFO tie-breaker). */
    public long waitOrder() { return waitOrder; }

    /** Tokens the request must hold in KV before its next token can be sampled: prompt plus generated (vLLM {@code num_tokens}). */
    public int numTokens() {
        return inputLength + generatedTokens;
    }

    /** Output tokens to generate: the given length, at least one (an engine always samples a first token). */
    public int targetOutputTokens() {
        return Math.max(1, outputTokens);
    }

    /** Tokens of the whole sequence (prompt + generated so far is what is computed). */
    public int totalTokens() {
        return input.length() + outputTokens;
    }

    /**
     * The chained hash of full block {@code b} of this request's sequence (prompt then output):
     * hash(parent block's hash, this block's content), as vLLM v1 prefix caching does.
     */
    public long blockHash(int b, int blockSize) {
        if (b < hashedBlocks) {
            return blockHashes[b];
        }
        if (b >= blockHashes.length) {
            blockHashes = java.util.Arrays.copyOf(blockHashes, Math.max(b + 1, blockHashes.length * 2 + 2));
        }
        for (int k = hashedBlocks; k <= b; k++) {
            long parent = k == 0 ? ROOT_HASH : blockHashes[k - 1];
            blockHashes[k] = contentHash(parent, k * blockSize, (k + 1) * blockSize);
        }
        hashedBlocks = b + 1;
        return blockHashes[b];
    }

    private long contentHash(long seed, int from, int to) {
        int in = input.length();
        if (to <= in) {
            return input.rangeHash(seed, from, to);
        }
        long h = seed;
        if (from < in) {
            h = input.rangeHash(h, from, in);
            from = in;
        }
        return TokenSequence.pieceHash(h, outputContentId, from - in, to - from);
    }

    @Override
    public String toString() {
        return "Request{" + id + ", in=" + input.length() + ", out=" + outputTokens + ", state=" + state
                + ", computed=" + computedTokens + "}";
    }
}
