package io.servesim.workload;

import io.servesim.engine.Request;
import io.servesim.engine.RequestTags;
import io.servesim.engine.TokenSequence;
import java.util.SplittableRandom;

/**
 * A running conversation: the state needed to make its next turn, nothing more (the previous
 * turn's prompt and output come from the request that just completed). Every follow-up draw
 * (think time, lengths, content, priority, streaming) comes from the session's own stream, seeded
 * from the client and the session's ordinal within the client, so a session's turns do not depend
 * on engine timing or on other sessions.
 */
final class Session {
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
        int user = client.spec.input().sampleInt(rng);
        int out = client.outputTokens(rng);
        long contentId = rng.nextLong();
        TokenSequence prompt = conv.accumulate()
                ? append(previous.input(), previous.outputContentId(), previous.generatedTokens(), contentId, user)
                : client.prompt(contentId, user);
        double priority = client.spec.priority().sample(rng);
        boolean streaming = client.streams(rng);
        // the user reads the previous response when it reaches them, thinks, and sends
        long sendUs = previous.clientCompletionUs() + thinkUs;
        long arrivalUs = sendUs + client.networkDelayUs(prompt.length());
        RequestTags t = client.tags;
        Request r = new Request(requestId, new RequestTags(t.clientId(), t.tenantId(), t.sloClass(), sessionId, turn),
                prompt, out, client.spec.maxOutputTokens(), arrivalUs, priority, streaming);
        if (client.responseDelayUs != null) {
            r.setClientNetwork(sendUs, client.responseDelayUs);
        }
        if (conv.accumulate() && !done()) {
            r.markOutputReusable();
        }
        return r;
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
