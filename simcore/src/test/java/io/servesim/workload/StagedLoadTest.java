package io.servesim.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.servesim.metrics.RequestRecord;
import io.servesim.run.LinearLatency;
import io.servesim.run.Runs;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Staged loads ({@code workload.stages}, inference-perf's load stages): each stage sends at its rate for its duration
 * and drains before the next starts, {@code stage_interval_us} later. Steps cost 1000 us + 10 us per prefill token +
 * 100 us per decode token, so a lone request of 100 prompt and 5 output tokens takes 2000 us to its first token and four
 * decode steps of 1100 us: 6400 us.
 */
class StagedLoadTest {
    private static final String LENGTHS = "input_distribution: {type: constant, params: {value: 100}}\n"
            + "output_distribution: {type: constant, params: {value: 5}}\n";

    private static List<RequestRecord> run(String workload) {
        WorkloadSpec spec = Yaml.workload(workload);
        return Runs.run(Runs.engine(10_000), LinearLatency.steps(1000, 10, 100), "fcfs", "constant", spec.open(1, 0), 0)
                .records().stream().sorted(Comparator.comparingLong(RequestRecord::requestId)).toList();
    }

    /**
     * Stage 1, 10 req/s for 1 s of evenly spaced arrivals: 100 ms, 200 ms, ..., 1000 ms (its end included), each done
     * 6400 us later; the last leaves at 1,006,400 us, after the stage's end, so stage 2 starts at 1,006,400 + 500,000 =
     * 1,506,400 and sends at 2 req/s for 1 s: 2,006,400 and 2,506,400.
     */
    @Test
    void eachStageDrainsBeforeTheNextStartsAfterTheInterval() {
        List<RequestRecord> rs = run(LENGTHS + "arrival: {process: constant}\n"
                + "stages: [{rate: 10, duration_us: 1s}, {rate: 2, duration_us: 1s}]\nstage_interval_us: 500ms\n");
        assertEquals(12, rs.size());
        for (int i = 0; i < 10; i++) {
            assertEquals(100_000L * (i + 1), rs.get(i).arrivalUs());
            assertEquals(rs.get(i).arrivalUs() + 6_400, rs.get(i).completionUs());
        }
        assertEquals(List.of(2_006_400L, 2_506_400L), List.of(rs.get(10).arrivalUs(), rs.get(11).arrivalUs()));
    }

    /**
     * A stage whose requests all left before its end: the next starts at the end plus the interval. Stage 1: 1 req/s
     * for 2 s, arrivals at 1 s and 2 s, the last done at 2,006,400; but here the stage lasts 2.5 s, so stage 2 starts at
     * 2,500,000 (interval 0) and its first arrival, at 4 req/s, is at 2,750,000.
     */
    @Test
    void aStageThatDrainedEarlyEndsAtItsEnd() {
        List<RequestRecord> rs = run(LENGTHS + "arrival: {process: constant}\n"
                + "stages: [{rate: 1, duration_us: 2.5s}, {rate: 4, duration_us: 1s}]\n");
        assertEquals(List.of(1_000_000L, 2_000_000L, 2_750_000L, 3_000_000L, 3_250_000L, 3_500_000L),
                rs.stream().map(RequestRecord::arrivalUs).toList());
    }

    /**
     * spread (inference-perf's constant load): a stage of rate r and duration d sends exactly floor(r x d) requests,
     * the last at its end. Stage 1: floor(5 x 2) = 10 requests in (0, 2 s], the 10th at 2 s; stage 2 starts when they
     * have all left (the 10th at 2,006,400, later than any other) and sends floor(1.5 x 3) = 4, the last at
     * 2,006,400 + 3,000,000.
     */
    @Test
    void spreadSendsEachStagesCountAndEndsAtTheStagesEnd() {
        List<RequestRecord> rs = run(LENGTHS + "arrival: {process: spread}\n"
                + "stages: [{rate: 5, duration_us: 2s}, {rate: 1.5, duration_us: 3s}]\n");
        assertEquals(14, rs.size());
        assertEquals(2_000_000L, rs.get(9).arrivalUs());
        assertTrue(rs.subList(0, 10).stream().allMatch(r -> r.arrivalUs() > 0 && r.arrivalUs() <= 2_000_000));
        long stage2 = rs.subList(0, 10).stream().mapToLong(RequestRecord::completionUs).max().orElseThrow();
        assertTrue(rs.subList(10, 14).stream().allMatch(r -> r.arrivalUs() > stage2));
        assertEquals(stage2 + 3_000_000, rs.get(13).arrivalUs());
    }

    @Test
    void configProblemsNameTheirPath() {
        Path dir = Path.of(".");
        assertEquals(List.of("workload.aggregate_rate: not used by a staged load: each stage's rate replaces it; remove"
                + " aggregate_rate"), Yaml.problems("aggregate_rate: 3\nstages: [{rate: 1, duration_us: 1s}]\n" + LENGTHS, dir));
        assertEquals(List.of("workload.stages[1].duration_us: required in a stage"),
                Yaml.problems("stages: [{rate: 1, duration_us: 1s}, {rate: 2}]\n" + LENGTHS, dir));
        assertEquals(List.of("workload.stages: must list at least one stage {rate, duration_us}"),
                Yaml.problems("stages: []\n" + LENGTHS, dir));
        assertEquals(List.of("workload.stage_interval_us: only for a staged load (workload.stages)"),
                Yaml.problems("aggregate_rate: 3\nnum_requests: 4\nstage_interval_us: 1s\n" + LENGTHS, dir));
        assertEquals(List.of("workload.arrival.process: spread sends each stage's rate x duration requests over the stage:"
                + " only in a staged load (workload.stages)"),
                Yaml.problems("aggregate_rate: 3\nnum_requests: 4\narrival: {process: spread}\n" + LENGTHS, dir));
        assertEquals(List.of("workload.lifecycle: spread sends exactly floor(rate x duration) requests over each stage,"
                + " which a lifecycle window would cut; remove lifecycle or use another process"),
                Yaml.problems("stages: [{rate: 1, duration_us: 1s}]\narrival: {process: spread}\n"
                        + "lifecycle: {start_us: 1s}\n" + LENGTHS, dir));
        assertEquals(List.of("workload.arrival.process: distribution sets the client's own rate, which a staged load's"
                + " stages would not; use a process that runs at the stage's rate"),
                Yaml.problems("stages: [{rate: 1, duration_us: 1s}]\n" + LENGTHS
                        + "arrival: {process: distribution, inter_arrival_us: {type: constant, params: {value: 5}}}\n", dir));
    }
}
