package io.servesim.workload.trace;

import io.servesim.engine.TokenSequence;

/**
 * One request read from a trace.
 *
 * @param lineNo        1-based line in the file
 * @param timestampUs   the trace's timestamp in microseconds (not yet normalised to start at 0), or
 *                      {@link #NO_TIMESTAMP} for a follow-up turn that gives none (its time is its delay)
 * @param prompt        prompt content (unique, Mooncake blocks, or real token ids)
 * @param outputTokens  output tokens
 * @param sessionId     the row's session, numbered by the reader in order of first appearance from 0, or -1 when
 *                      the row is not part of a session
 * @param turn          the row's index among its session's rows (0 for the first turn and for a row without a session)
 * @param delayUs       for a follow-up turn: the time from the previous turn's completion to its release (the
 *                      trace's {@code delay}, or the gap between the two turns' timestamps); 0 otherwise
 */
public record TraceRow(long lineNo, long timestampUs, TokenSequence prompt, int outputTokens, long sessionId, int turn,
                       long delayUs) {
    /** {@link #timestampUs} of a follow-up turn without a timestamp. */
    public static final long NO_TIMESTAMP = -1;

    /** A row without a session. */
    public TraceRow(long lineNo, long timestampUs, TokenSequence prompt, int outputTokens) {
        this(lineNo, timestampUs, prompt, outputTokens, -1, 0, 0);
    }

    /** Whether the row is a session's second or later turn (released by its predecessor's completion). */
    public boolean followUp() {
        return turn > 0;
    }
}
