package io.servesim.workload;

import io.servesim.engine.MediaItems;
import io.servesim.engine.TokenSequence;
import java.util.Comparator;
import java.util.SplittableRandom;

/**
 * A generated request before it is given its run-wide id: ids are assigned in emission order by
 * {@link GeneratorSource}, so a client's drafts depend only on that client's random streams.
 */
final class Draft {
    /** Engine-arrival order; ties by the client's generation order. */
    static final Comparator<Draft> ORDER = Comparator.comparingLong((Draft d) -> d.arrivalUs).thenComparingLong(d -> d.seq);

    final ClientStream client;
    final long seq;
    /** When the client sends it. */
    final long sendUs;
    final long arrivalUs;
    /** The prompt, or null for an agentic session (its root steps are made by the session registry). */
    final TokenSequence prompt;
    final int outputTokens;
    /** Of {@link #outputTokens}, the leading reasoning tokens (0 for a client without reasoning). */
    final int reasoningTokens;
    /** The prompt's image, audio and video items, or null for a text prompt. */
    final MediaItems media;
    final double priority;
    final boolean streaming;
    /** Random stream of the session this draft starts (a conversation or an agentic session), or null for a single request. */
    final SplittableRandom sessionRng;
    final int sessionTurns;

    Draft(ClientStream client, long seq, long sendUs, long arrivalUs, TokenSequence prompt, int outputTokens,
          int reasoningTokens, MediaItems media, double priority, boolean streaming, SplittableRandom sessionRng,
          int sessionTurns) {
        this.client = client;
        this.seq = seq;
        this.sendUs = sendUs;
        this.arrivalUs = arrivalUs;
        this.prompt = prompt;
        this.outputTokens = outputTokens;
        this.reasoningTokens = reasoningTokens;
        this.media = media;
        this.priority = priority;
        this.streaming = streaming;
        this.sessionRng = sessionRng;
        this.sessionTurns = sessionTurns;
    }
}
