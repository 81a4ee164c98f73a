package io.servesim.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.servesim.config.ConfigException.Problem;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@link SweepPlan#naming}: a cell's config problem names the axis whose path it is at or above. */
class SweepPlanTest {
    private static final List<Axis> AXES = List.of(
            new Axis("routing", List.of(new Axis.Value("rr", Map.of("policies.routng.name", TextNode.valueOf("round-robin"))))),
            new Axis("rate", List.of(new Axis.Value("10", Map.of("workload.aggregate_rate", IntNode.valueOf(10))))));

    /**
     * policies.routng is above routing's path: named. workload.aggregate_rate is rate's own path:
     * named. workload.num_requests is beside rate's path, and engine.block_size under no axis: as they were.
     */
    @Test
    void problemsAtOrAboveAnAxisPathNameTheAxis() {
        List<Problem> named = SweepPlan.naming(AXES, List.of(
                new Problem("policies.routng", "unknown key"),
                new Problem("workload.aggregate_rate", "must be > 0"),
                new Problem("workload.num_requests", "must be >= 1"),
                new Problem("engine.block_size", "must be a power of 2")));
        assertEquals(List.of(
                new Problem("policies.routng", "unknown key (axis routing sets policies.routng.name)"),
                new Problem("workload.aggregate_rate", "must be > 0 (axis rate sets workload.aggregate_rate)"),
                new Problem("workload.num_requests", "must be >= 1"),
                new Problem("engine.block_size", "must be a power of 2")), named);
    }

    /**
     * A cell's warnings ({@code RunPlan#warnings}) are listed once however many cells have them: the renamed fitness
     * key of the base in both cells once; a warning of one value of the axis with its count, 1 of 2 cells.
     */
    @Test
    void warningsAreListedOnceWithTheirCellCount(@org.junit.jupiter.api.io.TempDir java.nio.file.Path tmp) throws Exception {
        java.nio.file.Path file = java.nio.file.Files.writeString(tmp.resolve("s.yaml"), """
                name: warned
                base:
                  deployment: {model: meta-llama/llama-3.1-8b-instruct, hardware: H100, latency_model: roofline}
                  fitness_weights: "throughput:1"
                  workload: {scenario: chat, aggregate_rate: 2, num_requests: 10}
                axes:
                  - name: weights
                    values:
                      plain: {fitness_weights: "throughput:1"}
                      renamed-ttft: {fitness_weights: "throughput:1,p99_ttft:1"}
                seeds: [1]
                """);
        SweepPlan plan = SweepPlan.prepare(SweepFile.load(file));
        List<String> lines = plan.warningLines();
        assertEquals(1, lines.stream().filter(l -> l.startsWith("fitness_weights: 'throughput' is now named 'throughput_rps'")
                && !l.contains(" of 2 cells")).count(), lines.toString());
        assertEquals(1, lines.stream().filter(l -> l.contains("'p99_ttft'") && l.endsWith("(1 of 2 cells)")).count(),
                lines.toString());
    }

    /** Seeds of a trace's cells repeat one run: said once, counting those cells, and not for generated traffic. */
    @Test
    void seedsOfATraceThatDrawsNothingAreSaidToRepeatTheRun(@org.junit.jupiter.api.io.TempDir java.nio.file.Path tmp)
            throws Exception {
        java.nio.file.Path trace = java.nio.file.Path.of("..", "sweeps", "data", "traces", "mooncake_fast25",
                "conversation_trace.jsonl").toAbsolutePath().normalize();
        java.nio.file.Path file = java.nio.file.Files.writeString(tmp.resolve("s.yaml"), """
                name: seeded
                base:
                  deployment: {model: meta-llama/llama-3.1-8b-instruct, hardware: H100, latency_model: roofline}
                axes:
                  - name: workload
                    values:
                      trace: {workload: {trace: {format: mooncake, path: %s, max_requests: 20}}}
                      chat: {workload: {scenario: chat, aggregate_rate: 2, num_requests: 10}}
                seeds: [1, 2]
                """.formatted(trace));
        List<String> lines = SweepPlan.prepare(SweepFile.load(file)).warningLines();
        // the trace's 2 cells of 4: the chat cells draw their traffic from the seed
        assertEquals(List.of("a trace replays its own arrivals and lengths whatever the seed, and nothing else in these"
                + " cells draws from it (no speculative decoding): their seeds [1, 2] repeat the same run (2 of 4 cells)"),
                lines);
    }
}
