package io.servesim.workload;

import io.servesim.config.Durations;
import io.servesim.engine.MediaItems;
import io.servesim.engine.RequestTags;
import io.servesim.engine.TokenSequence;
import io.servesim.rng.PartitionedRng;
import io.servesim.workload.agentic.AgenticClient;
import io.servesim.workload.arrival.ArrivalProcess;
import io.servesim.workload.multimodal.MultimodalSpec;
import java.util.PriorityQueue;
import java.util.SplittableRandom;
import java.util.function.IntToLongFunction;

/**
 * One client's open-loop requests in engine-arrival order. Every draw comes from the client's own
 * partitioned streams ({@code workload.client.<id>.arrivals}, {@code .input}, {@code .output},
 * {@code .priority}, {@code .streaming}, {@code .conversation}, {@code .content}, {@code .sessions}, {@code .pool},
 * {@code .pool-content}, {@code .reasoning}),
 * so adding, removing or changing another client never changes this client's requests.
 *
 * <p>Network delay depends on the prompt, so a later send can arrive earlier. Drafts wait in a
 * small heap until no future send can overtake them: every future send is at or after the next
 * send time, and arrives at least the request leg's {@code rtt_us / 2} later ({@link NetworkSpec}). The heap holds the drafts sent within one
 * maximum network delay, O(rate x delay).
 */
final class ClientStream {
    final ClientSpec spec;
    final int index;
    final RequestTags tags;
    /** The client's agentic workflow context, or null for a client of single requests or conversations. */
    final AgenticClient agentic;
    private ArrivalProcess process;
    private final SplittableRandom arrivals;
    private final SplittableRandom inputs;
    private final SplittableRandom outputs;
    private final SplittableRandom priorities;
    private final SplittableRandom streaming;
    private final SplittableRandom conversations;
    private final SplittableRandom reasonings;
    private final long contentSalt;
    private final long sessionSalt;
    /** The client's last send time: its lifecycle stop, capped by the horizon. */
    private final long clientLastSendUs;
    /** The last send time of the stage being sent (the client's own outside a staged load). */
    private long lastSendUs;
    private double passedSimulatedTimeAtUs = Double.NaN;
    private final long minDelayUs;
    /** The client's prompt pool, or null. */
    private final PromptPool pool;
    /** The network's response leg (output tokens of a chunk to microseconds), or null without one. */
    final IntToLongFunction responseDelayUs;
    private final PriorityQueue<Draft> pending = new PriorityQueue<>(Draft.ORDER);
    private double nextSendUs;
    private long seq;
    private long sessionsStarted;
    private boolean exhausted;

    /**
     * The client's stream at {@code rateRps} from its lifecycle start; with {@code staged}, no arrival until
     * {@link #startStage} starts a stage.
     */
    ClientStream(ClientSpec spec, int index, double rateRps, long seed, long horizonUs, boolean staged) {
        this.spec = spec;
        this.index = index;
        this.tags = new RequestTags(spec.id(), spec.tenantId(), spec.sloClass(), -1, 0);
        PartitionedRng rng = new PartitionedRng(seed);
        String base = "workload.client." + spec.id() + ".";
        this.arrivals = rng.stream(base + "arrivals");
        this.inputs = rng.stream(base + "input");
        this.outputs = rng.stream(base + "output");
        this.priorities = rng.stream(base + "priority");
        this.streaming = rng.stream(base + "streaming");
        this.conversations = rng.stream(base + "conversation");
        this.reasonings = rng.stream(base + "reasoning");
        this.contentSalt = PartitionedRng.streamSeed(seed, base + "content");
        this.sessionSalt = PartitionedRng.streamSeed(seed, base + "sessions");
        this.clientLastSendUs = horizonUs > 0 ? Math.min(horizonUs, spec.stopUs()) : spec.stopUs();
        this.minDelayUs = spec.network() == null ? 0 : spec.network().minRequestDelayUs();
        this.responseDelayUs = spec.network() == null ? null : spec.network()::responseDelayUs;
        PromptPoolSpec poolSpec = spec.promptPool();
        if (poolSpec == null) {
            this.pool = null;
        } else {
            long poolSeed = poolSpec.seed().orElse(seed);
            this.pool = new PromptPool(poolSpec, spec, new PartitionedRng(poolSeed).stream(base + "pool"),
                    PartitionedRng.streamSeed(poolSeed, base + "pool-content"));
        }
        if (staged) {
            this.exhausted = true;
        } else {
            this.process = spec.arrival().atRate(rateRps);
            this.lastSendUs = clientLastSendUs;
            this.nextSendUs = process.nextUs(spec.startUs(), arrivals);
        }
        PrefixSpec p = spec.prefix();
        this.agentic = spec.agentic() == null ? null : new AgenticClient(spec.agentic(), spec.id(), spec.tenantId(),
                spec.sloClass(), p == null ? 0 : p.contentId(), p == null ? 0 : p.lengthTokens(), spec.maxOutputTokens(),
                spec.priority(), spec.streamingProbability());
    }

    /**
     * Starts a stage of a staged load: sends at {@code rateRps} from {@code startUs} (or the client's lifecycle start)
     * until {@code endUs} (or its lifecycle stop, or the horizon). The client's random streams carry on.
     */
    void startStage(double rateRps, long startUs, long endUs) {
        process = spec.arrival().forStage(rateRps, startUs, endUs - startUs);
        lastSendUs = Math.min(endUs, clientLastSendUs);
        exhausted = false;
        nextSendUs = process.nextUs(Math.max(startUs, spec.startUs()), arrivals);
    }

    /** The earliest pending draft (not removed), or null when the client has no more arrivals. */
    Draft peek() {
        while (!exhausted && (pending.isEmpty() || pending.peek().arrivalUs > Math.round(nextSendUs) + minDelayUs)) {
            generate();
        }
        return pending.peek();
    }

    /** Removes and returns the earliest pending draft. */
    Draft poll() {
        peek();
        return pending.poll();
    }

    /**
     * When the client's next send fell past the simulated time a run may span ({@link Durations#MAX_US}), which ended its
     * arrivals; NaN when it did not.
     */
    double passedSimulatedTimeAtUs() {
        return passedSimulatedTimeAtUs;
    }

    /** Drafts generated but not yet emitted (bounded by the network reorder window). */
    int pendingDrafts() {
        return pending.size();
    }

    private void generate() {
        long sendUs = Math.round(nextSendUs);
        if (sendUs > lastSendUs || seq > 0 && spec.singleSession()) {
            exhausted = true;
            return;
        }
        if (sendUs > Durations.MAX_US) {
            // a time past it would overflow the microsecond clock once a latency is added to it: the workload reports
            // it if the run needs this request (GeneratorSource), not when it is only drawn ahead
            exhausted = true;
            passedSimulatedTimeAtUs = nextSendUs;
            return;
        }
        nextSendUs = process.nextUs(nextSendUs, arrivals);
        long n = seq++;
        if (agentic != null) {
            // An agentic session: its steps are drawn by the session registry from the session's stream.
            SplittableRandom sessionRng = new SplittableRandom(PartitionedRng.mix64(sessionSalt + sessionsStarted++));
            pending.add(new Draft(this, n, sendUs, sendUs, null, 0, 0, null, 0, false, sessionRng, 0));
            return;
        }
        TokenSequence prompt;
        int out;
        MediaItems media = null;
        if (pool != null) {
            int p = pool.next();
            prompt = pool.prompt(p);
            out = pool.outputTokens(p);
        } else if (spec.multimodal() != null) {
            MultimodalSpec.Message m = spec.multimodal().sample(inputs, PartitionedRng.mix64(contentSalt + n));
            prompt = prompt(m);
            media = m.items(prefixTokens());
            out = outputTokens(outputs);
        } else {
            int user = spec.input().sampleInt(inputs);
            prompt = prompt(PartitionedRng.mix64(contentSalt + n), user);
            out = outputTokens(outputs);
        }
        int reasoning = spec.reasoningTokens(out, reasonings);
        double priority = spec.priority().sample(priorities);
        boolean stream = streams(streaming);
        SplittableRandom sessionRng = null;
        int turns = 0;
        ConversationSpec conv = spec.conversation();
        if (conv != null && (conv.probability() >= 1 || conv.probability() > 0 && conversations.nextDouble() < conv.probability())) {
            sessionRng = new SplittableRandom(PartitionedRng.mix64(sessionSalt + sessionsStarted++));
            turns = conv.turns().sampleInt(sessionRng);
        }
        pending.add(new Draft(this, n, sendUs, sendUs + networkDelayUs(prompt.length()), prompt, out, reasoning, media,
                priority, stream, sessionRng, turns));
    }

    /** A fresh prompt: the shared prefix (if any) then {@code userTokens} of content {@code contentId}. */
    TokenSequence prompt(long contentId, int userTokens) {
        PrefixSpec p = spec.prefix();
        return p == null ? TokenSequence.unique(contentId, userTokens)
                : TokenSequence.prefixed(p.contentId(), p.lengthTokens(), contentId, userTokens);
    }

    /** Tokens of the client's shared prefix (0 without one): where a fresh prompt's message starts. */
    int prefixTokens() {
        return spec.prefix() == null ? 0 : spec.prefix().lengthTokens();
    }

    /** A fresh multimodal prompt: the shared prefix (if any) then message {@code m}. */
    TokenSequence prompt(MultimodalSpec.Message m) {
        PrefixSpec p = spec.prefix();
        return p == null ? m.after(TokenSequence.ofSegments(new long[0], new int[0]), 0)
                : m.after(TokenSequence.unique(p.contentId(), p.lengthTokens()), p.lengthTokens());
    }

    /** A sampled output length, capped by max_output_tokens. */
    int outputTokens(SplittableRandom rng) {
        int out = spec.output().sampleInt(rng);
        return spec.maxOutputTokens() > 0 ? Math.min(out, spec.maxOutputTokens()) : out;
    }

    /** Whether a request streams (draws only when the probability is strictly between 0 and 1). */
    boolean streams(SplittableRandom rng) {
        double p = spec.streamingProbability();
        return p >= 1 || p > 0 && rng.nextDouble() < p;
    }

    /** The network's request leg for a prompt of {@code inputTokens} (0 without a network). */
    long networkDelayUs(int inputTokens) {
        return spec.network() == null ? 0 : spec.network().requestDelayUs(inputTokens);
    }
}
