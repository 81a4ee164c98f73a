package io.servesim.workload.reasoning;

import io.servesim.workload.dist.DistributionSpec;
import java.util.SplittableRandom;

/**
 * A reasoning client ({@code clients[].reasoning}, BLIS workload spec v2 {@code ReasoningSpec},
 * {@code sim/workload/spec.go} and {@code sim/workload/reasoning.go} at inference-sim/inference-sim@f90a1e3a): each
 * request's output begins with reasoning tokens (a reasoning model's thinking), their share of the output drawn from
 * {@code reason_ratio_distribution} as an integer percentage, as BLIS samples it (there the ratio is
 * {@code pct / 100} clamped to [0, 1] and is "part of OutputTokens, not additional", {@code sim/request.go}). Here the
 * request's reasoning tokens are {@code floor(output x pct / 100)}; the rest of the output is the answer.
 *
 * <p>In a multi-turn session of a reasoning client (its {@code multi_turn}, or a {@code conversation}) the history
 * carried into the next turn drops the previous turns' reasoning: reasoning models' chat templates render a previous
 * assistant turn without its thinking. Qwen3's template keeps only the text after {@code </think>} of an assistant
 * message before the last user query ({@code tokenizer_config.json} of Qwen/Qwen3-8B, its {@code chat_template}:
 * {@code content.split('</think>')[-1]}), and DeepSeek-R1's does the same ({@code tokenizer_config.json} of
 * deepseek-ai/DeepSeek-R1: {@code content.split('</think>')[-1]}). So a follow-up's prompt is the previous prompt, the
 * previous answer, then the new user message ({@link #history}), and the engine's prefix cache hits the previous prompt
 * only: the answer's KV was computed after the reasoning tokens, at other positions.
 *
 * @param reasonPercent integer percentages of the output that is reasoning, in [0, 100]
 * @param multiTurn     BLIS's {@code multi_turn}, or null for single requests (or the client's own conversation)
 */
public record ReasoningSpec(DistributionSpec reasonPercent, MultiTurn multiTurn) {
    /**
     * BLIS {@code MultiTurnSpec}: sessions of {@code maxRounds} rounds, each follow-up sent {@code thinkTimeUs} after
     * the previous round's response reached the client (closed loop, BLIS's default for multi-turn clients,
     * {@code sim/workload/generator.go} {@code isClosedLoop}).
     *
     * @param maxRounds     rounds per session, the first included
     * @param thinkTimeUs   the user's think time between a response and the next round
     * @param accumulate    context_growth accumulate (the history grows) or none (a fresh prompt each round)
     * @param singleSession one session per client: its arrival process fires once
     */
    public record MultiTurn(int maxRounds, long thinkTimeUs, boolean accumulate, boolean singleSession) {
    }

    /** The reasoning tokens of a request of {@code outputTokens}: that share of them, drawn from {@code rng}. */
    public int reasoningTokens(int outputTokens, SplittableRandom rng) {
        long pct = reasonPercent.sampleLong(rng);
        return (int) (outputTokens * pct / 100);
    }

    /** The answer of a previous turn carried into the next one's history: its generated tokens after the reasoning. */
    public static int answerTokens(int generatedTokens, int reasoningTokens) {
        return Math.max(0, generatedTokens - reasoningTokens);
    }
}
