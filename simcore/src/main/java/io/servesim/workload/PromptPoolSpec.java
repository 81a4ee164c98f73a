package io.servesim.workload;

import io.servesim.workload.dist.DistributionSpec;
import java.util.OptionalLong;

/**
 * A fixed pool of prompts sent in a cycle ({@code clients[].prompt_pool}), as kubernetes-sigs/inference-perf's
 * {@code shared_prefix} data generator builds and sends them (@ 7de5ef2e,
 * {@code inference_perf/datagen/synthetic/shared_prefix_datagen.py}): {@code systemPrompts} system prompts, each of a
 * length drawn once from {@code systemPromptTokens}, each followed by {@code questionsPerSystemPrompt} questions whose
 * lengths (the client's {@code input_distribution}) and output lengths (its {@code output_distribution}) are drawn once
 * per prompt, group by group; the pool is shuffled once and the client's requests take its prompts in that order,
 * round and round ({@code get_data} / {@code load_lazy_data}: prompt {@code i mod pool size}). A prompt sent again is
 * the same tokens, so the engine's prefix cache may hold all of it; prompts of a system prompt share its blocks.
 *
 * @param systemPrompts             N, the system prompts (inference-perf's {@code num_unique_system_prompts})
 * @param questionsPerSystemPrompt  M, the questions per system prompt ({@code num_users_per_system_prompt})
 * @param systemPromptTokens        a system prompt's length, drawn once per system prompt ({@code system_prompt_len})
 * @param seed                      the pool's own seed ({@code shared_prefix.seed}): the same pool whatever the run's
 *                                  seed; empty: the pool's stream derives from the workload's seed
 */
public record PromptPoolSpec(int systemPrompts, int questionsPerSystemPrompt, DistributionSpec systemPromptTokens,
                             OptionalLong seed) {
    /** The most prompts a pool holds: inference-perf keeps every prompt of its pool in memory, and so does servesim. */
    public static final long MAX_PROMPTS = 1_000_000;

    /** Prompts in the pool. */
    public int size() {
        return systemPrompts * questionsPerSystemPrompt;
    }
}
