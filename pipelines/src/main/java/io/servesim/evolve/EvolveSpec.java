package io.servesim.evolve;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.servesim.metrics.FitnessWeights;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * A bound evolve file ({@link EvolveFile}): what {@code servesim evolve} searches and how.
 *
 * @param name        names the output folder {@code out/<name>/}
 * @param base        the base run config (its {@code fitness_weights} set to {@link #fitnessText})
 * @param baseDir     the folder the base config's relative paths resolve against
 * @param fitnessText {@code fitness_weights} as written ({@code key:weight,...})
 * @param fitness     the same, parsed
 * @param policies    the template: policy kind -> its {@code {name, params}} node, the params searched left out
 * @param params      the searched parameters, in file order
 * @param population  candidates per generation (CMA-ES's lambda)
 * @param generations generations after the first (which is the start point alone)
 * @param seed        CMA-ES's random seed
 * @param train       the workloads and seeds the fitness is measured on
 * @param heldOut     the workloads and seeds the best candidate is also reported on, never searched on
 * @param baselines   hand-written policy bundles reported beside the best candidate: label -> kind -> node
 */
public record EvolveSpec(String name, ObjectNode base, Path baseDir, String fitnessText, FitnessWeights fitness,
                  Map<String, JsonNode> policies, List<Param> params, int population, int generations, long seed,
                  Split train, Split heldOut, Map<String, Map<String, JsonNode>> baselines) {
    /**
     * A set of runs: every workload under every seed.
     *
     * @param workloads label -> the {@code workload} value (a file's absolute path, or an inline mapping)
     * @param seeds     the seeds
     */
    record Split(Map<String, JsonNode> workloads, List<Long> seeds) {
        int runs() {
            return workloads.size() * seeds.size();
        }
    }
}
