package io.servesim.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.servesim.metrics.RequestRecord;
import io.servesim.run.LinearLatency;
import io.servesim.run.Runs;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;

/**
 * Staged loads on random stages (1 to 4 stages of 0.5 to 40 req/s for 0.2 to 3 s, a random interval, a pool or
 * plain lengths, spread, poisson or constant arrivals): replaying the stage boundaries from the records, every
 * request arrives inside its stage, stage k + 1 starts stage_interval_us after the later of stage k's end and its
 * last completion, and spread sends exactly floor(rate x duration) requests a stage, the last at the stage's end.
 */
class StagedLoadPropertyTest {
    @Property(tries = 30)
    void stagesDrainInOrder(@ForAll long seed) {
        SplittableRandom rng = new SplittableRandom(seed);
        int n = 1 + rng.nextInt(4);
        List<double[]> stages = new ArrayList<>();
        StringBuilder yaml = new StringBuilder("stages:\n");
        for (int i = 0; i < n; i++) {
            double rate = 0.5 + rng.nextInt(80) / 2.0;
            long durationUs = 200_000 + rng.nextInt(2_800_000);
            stages.add(new double[] {rate, durationUs});
            yaml.append("  - {rate: ").append(rate).append(", duration_us: ").append(durationUs).append("}\n");
        }
        long intervalUs = rng.nextInt(3) * 250_000L;
        String process = List.of("spread", "poisson", "constant").get(rng.nextInt(3));
        yaml.append("stage_interval_us: ").append(intervalUs).append("\narrival: {process: ").append(process).append("}\n")
                .append("input_distribution: {type: uniform, params: {min: 20, max: 400}}\n")
                .append("output_distribution: {type: uniform, params: {min: 1, max: 60}}\n");
        if (rng.nextBoolean()) {
            yaml.append("prompt_pool: {system_prompts: 3, questions_per_system_prompt: 4,"
                    + " system_prompt_distribution: {type: constant, params: {value: 64}}}\n");
        }
        List<RequestRecord> rs = Runs.run(Runs.engine(10_000), LinearLatency.steps(1000, 10, 100), "fcfs", "constant",
                Yaml.workload(yaml.toString()).open(seed, 0), 0).records().stream()
                .sorted(Comparator.comparingLong(RequestRecord::requestId)).toList();
        int next = 0;
        long startUs = 0;
        for (int k = 0; k < n; k++) {
            long endUs = startUs + (long) stages.get(k)[1];
            int first = next;
            long lastDoneUs = 0;
            while (next < rs.size() && rs.get(next).arrivalUs() <= endUs) {
                RequestRecord r = rs.get(next++);
                assertTrue(r.arrivalUs() >= startUs, "request " + r.requestId() + " at " + r.arrivalUs()
                        + " before stage " + k + " starts at " + startUs + "\n" + yaml);
                lastDoneUs = Math.max(lastDoneUs, r.completionUs());
            }
            if (process.equals("spread")) {
                long expected = (long) Math.floor(stages.get(k)[0] * stages.get(k)[1] / 1e6);
                assertEquals(expected, next - first, "stage " + k + "\n" + yaml);
                if (expected > 0) {
                    assertEquals(endUs, rs.get(next - 1).arrivalUs(), "the last of stage " + k + " at its end");
                }
            }
            startUs = Math.max(endUs, lastDoneUs) + intervalUs;
        }
        assertEquals(rs.size(), next, "every request arrived in a stage\n" + yaml);
    }
}
