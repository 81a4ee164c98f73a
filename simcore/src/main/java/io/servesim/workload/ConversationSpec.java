package io.servesim.workload;

import io.servesim.workload.dist.DistributionSpec;

/**
 * Multi-turn conversations ({@code conversation: {probability, turns, think_time_us, context_growth}}),
 * closed loop as in BLIS {@code MultiTurnSpec} / {@code SessionManager}: an arrival of the client
 * starts a session with this probability; the session has {@code turns} turns (sampled once); each
 * follow-up turn is sent {@code think_time_us} after the previous turn completes (client-visible
 * completion), only if that turn completed (a dropped turn ends the session).
 *
 * <p>With {@code context_growth: accumulate} a follow-up's prompt is the previous turn's prompt,
 * then the previous turn's generated output, then a new user message sampled from the client's
 * input distribution, so the engine sees the earlier turns as a cached prefix. With {@code none}
 * each turn is a fresh prompt (shared prefix, if any, plus new content).
 *
 * @param probability  probability that an arrival starts a conversation (else a single request)
 * @param turns        turns per session (including the first), integers >= 1
 * @param thinkTimeUs  think time between a turn's completion and the next turn's send, microseconds
 * @param accumulate   context_growth: accumulate (else none)
 */
public record ConversationSpec(double probability, DistributionSpec turns, DistributionSpec thinkTimeUs,
                               boolean accumulate) {
}
