package io.servesim.workload.trace;

import io.servesim.engine.TokenSequence;

/**
 * One request read from a trace.
 *
 * @param lineNo        1-based line in the file
 * @param timestampUs   the trace's timestamp in microseconds (not yet normalised to start at 0)
 * @param prompt        prompt content (unique, Mooncake blocks, or real token ids)
 * @param outputTokens  output tokens
 * @param sessionKey    the trace's session id, or null when the row is not part of a session
 * @param delayUs       for a follow-up turn: delay after the previous turn completes (concurrency mode)
 */
public record TraceRow(long lineNo, long timestampUs, TokenSequence prompt, int outputTokens, String sessionKey,
                       long delayUs) {
}
