package io.servesim.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.servesim.engine.Request;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * A client's prompt pool (inference-perf's shared_prefix data generator): N system prompts x M questions, drawn once,
 * shuffled once and sent in a cycle.
 */
class PromptPoolTest {
    private static final String POOL = "aggregate_rate: 10\nnum_requests: 12\n"
            + "input_distribution: {type: uniform, params: {min: 10, max: 40}}\n"
            + "output_distribution: {type: uniform, params: {min: 2, max: 9}}\n"
            + "prompt_pool: {system_prompts: 2, questions_per_system_prompt: 3,"
            + " system_prompt_distribution: {type: uniform, params: {min: 50, max: 90}}}\n";

    private static long hash(Request r) {
        return r.input().rangeHash(0, 0, r.inputTokens());
    }

    /**
     * 12 requests of a 2 x 3 pool: two rounds of its 6 prompts in one order, so request k + 6 repeats request k (the
     * same tokens and output length); the 6 prompts start with one of the 2 system prompts, 3 each.
     */
    @Test
    void thePoolIsSentInACycle() {
        List<Request> rs = Drain.all(Yaml.workload(POOL).open(7, 0));
        assertEquals(12, rs.size());
        for (int k = 0; k < 6; k++) {
            assertEquals(hash(rs.get(k)), hash(rs.get(k + 6)), "request " + (k + 6));
            assertEquals(rs.get(k).outputTokens(), rs.get(k + 6).outputTokens());
        }
        Set<Long> prompts = new HashSet<>();
        Map<Long, Set<Long>> bySystemPrompt = new HashMap<>();
        for (Request r : rs.subList(0, 6)) {
            prompts.add(hash(r));
            bySystemPrompt.computeIfAbsent(r.input().segmentId(0), g -> new HashSet<>()).add(hash(r));
        }
        assertEquals(6, prompts.size());
        assertEquals(List.of(3, 3), bySystemPrompt.values().stream().map(Set::size).toList());
    }

    @Test
    void aPoolSeedGivesTheSamePoolWhateverTheRunSeed() {
        String seeded = POOL.replace("system_prompts: 2,", "system_prompts: 2, seed: 42,");
        List<Long> a = Drain.all(Yaml.workload(seeded).open(1, 0)).stream().map(PromptPoolTest::hash).toList();
        List<Long> b = Drain.all(Yaml.workload(seeded).open(2, 0)).stream().map(PromptPoolTest::hash).toList();
        assertEquals(a, b);
    }

    @Test
    void configProblemsNameTheirPath() {
        Path dir = Path.of(".");
        assertEquals(List.of("workload.prompt_pool.questions_per_system_prompt: the pool would hold 2000000 prompts"
                + " (system_prompts x questions_per_system_prompt); at most 1000000, every prompt of it being kept in memory"),
                Yaml.problems(POOL.replace("questions_per_system_prompt: 3", "questions_per_system_prompt: 1000000"), dir));
        assertEquals(List.of("workload.prompt_pool: excludes prefix on the same client (the pool's system prompts are its"
                + " prefixes); remove one of them"), Yaml.problems(POOL + "prefix: {group: g, length: 8}\n", dir));
        assertEquals(List.of("workload.prompt_pool.system_prompt_distribution: required: a system prompt's length, e.g."
                + " {type: constant, params: {value: 100}}"),
                Yaml.problems(POOL.replace(", system_prompt_distribution: {type: uniform, params: {min: 50, max: 90}}", ""), dir));
    }
}
