package io.servesim.workload;

import io.servesim.engine.TokenSequence;
import io.servesim.rng.PartitionedRng;
import java.util.SplittableRandom;

/**
 * A client's prompt pool ({@link PromptPoolSpec}) built once, in inference-perf's order
 * ({@code shared_prefix_datagen.py}: a length per system prompt, then per system prompt its questions' lengths and its
 * outputs' lengths, then one shuffle of the whole pool), and handed out in a cycle. Memory: four ints per prompt and
 * one per system prompt, all drawn from the pool's own stream.
 */
final class PromptPool {
    private final int[] systemTokens;
    private final long[] systemContent;
    private final int[] questionTokens;
    private final int[] outputTokens;
    /** Pool position to prompt: the shuffle. */
    private final int[] order;
    private final int questionsPerGroup;
    private final long contentSalt;
    private int next;

    /** The pool of {@code spec}, drawn from {@code rng}; questions' content ids salted with {@code contentSalt}. */
    PromptPool(PromptPoolSpec spec, ClientSpec client, SplittableRandom rng, long contentSalt) {
        int groups = spec.systemPrompts();
        int perGroup = spec.questionsPerSystemPrompt();
        int size = spec.size();
        this.questionsPerGroup = perGroup;
        this.contentSalt = contentSalt;
        systemTokens = new int[groups];
        systemContent = new long[groups];
        for (int g = 0; g < groups; g++) {
            systemTokens[g] = spec.systemPromptTokens().sampleInt(rng);
            systemContent[g] = PartitionedRng.mix64(contentSalt ^ PartitionedRng.mix64(~(long) g));
        }
        questionTokens = new int[size];
        outputTokens = new int[size];
        for (int g = 0; g < groups; g++) {
            for (int q = 0; q < perGroup; q++) {
                questionTokens[g * perGroup + q] = client.input().sampleInt(rng);
            }
            for (int q = 0; q < perGroup; q++) {
                int out = client.output().sampleInt(rng);
                outputTokens[g * perGroup + q] = client.maxOutputTokens() > 0 ? Math.min(out, client.maxOutputTokens()) : out;
            }
        }
        order = new int[size];
        for (int i = 0; i < size; i++) {
            order[i] = i;
        }
        for (int i = size - 1; i > 0; i--) { // Fisher-Yates, as numpy's permutation
            int j = rng.nextInt(i + 1);
            int t = order[i];
            order[i] = order[j];
            order[j] = t;
        }
    }

    /** The next prompt's index in the pool (round and round). */
    int next() {
        int p = order[next];
        next = next + 1 == order.length ? 0 : next + 1;
        return p;
    }

    /** Prompt {@code p}: its system prompt then its question, the same tokens every time it is sent. */
    TokenSequence prompt(int p) {
        int g = p / questionsPerGroup;
        return TokenSequence.ofSegments(new long[] {systemContent[g], PartitionedRng.mix64(contentSalt + PartitionedRng.mix64(p))},
                new int[] {systemTokens[g], questionTokens[p]});
    }

    /** Prompt {@code p}'s output length (capped by the client's max_output_tokens). */
    int outputTokens(int p) {
        return outputTokens[p];
    }
}
