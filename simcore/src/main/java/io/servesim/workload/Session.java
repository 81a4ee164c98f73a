package io.servesim.workload;

import io.servesim.engine.MediaItems;
import io.servesim.engine.Request;
import io.servesim.engine.RequestTags;
import io.servesim.engine.TokenSequence;
import io.servesim.rng.PartitionedRng;
import io.servesim.workload.multimodal.MultimodalSpec;
import io.servesim.workload.reasoning.ReasoningSpec;
import java.util.SplittableRandom;

/**
 * A running conversation: the state needed to make its next turn, nothing more (the previous
 * turn's prompt and output come from the request that just completed). Every follow-up draw
 * (think time, lengths, content, priority, streaming) comes from the session's own stream, seeded
 * from the client and the session's ordinal within the client, so a session's turns do not depend
 * on engine timing or on other sessions.
 */
final class Session {
    /** Salts an output's content id into its answer's (the output without its reasoning tokens). */
    private static final long ANSWER_SALT = 0x616E_7377_6572L;
    final long sessionId;
    private final ClientStream client;
    private final SplittableRandom rng;
    private final int turns;
    private int nextTurn = 1;

    Session(long sessionId, ClientStream client, SplittableRandom rng, int turns) {
        this.sessionId = sessionId;
        this.client = client;
        this.rng = rng;
        this.turns = turns;
    }

    /** Whether every turn has been made. */
    boolean done() {
        return nextTurn >= turns;
    }

    /**
     * The next turn, sent a think time after the completed {@code previous} response reached the
     * client (its completion plus the network's response leg).
     */
    Request nextTurn(Request previous, long requestId) {
        ConversationSpec conv = client.spec.conversation();
        int turn = nextTurn++;
        long thinkUs = conv.thinkTimeUs().sampleLong(rng);
        MultimodalSpec mm = client.spec.multimodal();
        int user = mm == null ? client.spec.input().sampleInt(rng) : 0;
        int out = client.outputTokens(rng);
        long contentId = rng.nextLong();
        TokenSequence prompt;
        MediaItems media = null;
        if (mm == null) {
            prompt = conv.accumulate() ? history(previous, contentId, user) : client.prompt(contentId, user);
        } else {
            // a message of text and items; the history carries the previous turns' items again
            MultimodalSpec.Message m = mm.sample(rng, contentId);
            if (conv.accumulate()) {
                TokenSequence history = history(previous, 0, 0);
                prompt = m.after(history, Integer.MAX_VALUE);
                media = MediaItems.concat(previous.media(), m.items(history.length()));
            } else {
                prompt = client.prompt(m);
                media = m.items(client.prefixTokens());
            }
        }
        double priority = client.spec.priority().sample(rng);
        boolean streaming = client.streams(rng);
        int reasoning = client.spec.reasoningTokens(out, rng);
        // the user reads the previous response when it reaches them, thinks, and sends
        long sendUs = previous.clientCompletionUs() + thinkUs;
        long arrivalUs = sendUs + client.networkDelayUs(prompt.length());
        RequestTags t = client.tags;
        Request r = new Request(requestId, new RequestTags(t.clientId(), t.tenantId(), t.sloClass(), sessionId, turn),
                prompt, out, client.spec.maxOutputTokens(), arrivalUs, priority, streaming);
        if (client.responseDelayUs != null) {
            r.setClientNetwork(sendUs, client.responseDelayUs);
        }
        r.setReasoningTokens(reasoning);
        r.setMedia(media);
        if (conv.accumulate() && !done()) {
            r.markOutputReusable();
        }
        return r;
    }

    /**
     * The previous turn's prompt and output, then a new user message of {@code newTokens}. A previous output that began
     * with reasoning tokens is carried without them, as reasoning models' chat templates render an earlier assistant
     * turn ({@code reasoning.ReasoningSpec}): only its answer, as content of its own (the answer's KV was computed after
     * the reasoning, at other positions, so the engine's cache does not hold it at these).
     */
    private static TokenSequence history(Request previous, long newContentId, int newTokens) {
        int reasoning = previous.reasoningTokens();
        if (reasoning == 0) {
            return append(previous.input(), previous.outputContentId(), previous.generatedTokens(), newContentId, newTokens);
        }
        return append(previous.input(), PartitionedRng.mix64(previous.outputContentId() ^ ANSWER_SALT),
                ReasoningSpec.answerTokens(previous.generatedTokens(), reasoning), newContentId, newTokens);
    }

    /**
     * {@code prompt}, then {@code outputTokens} of the previous output's content, then a new user
     * message: the same (content, offset) pieces the engine hashed for the previous request's
     * blocks, so those blocks are prefix-cache hits.
     */
    static TokenSequence append(TokenSequence prompt, long outputContentId, int outputTokens, long newContentId,
                                int newTokens) {
        int n = prompt.segmentCount();
        long[] ids = new long[n + 2];
        int[] lengths = new int[n + 2];
        for (int i = 0; i < n; i++) {
            ids[i] = prompt.segmentId(i);
            lengths[i] = prompt.segmentLength(i);
        }
        ids[n] = outputContentId;
        lengths[n] = outputTokens;
        ids[n + 1] = newContentId;
        lengths[n + 1] = newTokens;
        return TokenSequence.ofSegments(ids, lengths);
    }
}
