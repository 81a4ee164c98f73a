package io.servesim.evolve;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.servesim.sweep.JobDefinition;

/**
 * {@code _EVOLVE.yaml}, beside a search's results and first in its staging folder ({@link JobDefinition}): the search
 * as resolved (the base config inlined, the fitness, the template, every searched parameter, CMA-ES's settings, the
 * splits and baselines) and its {@code evolve_id}, a hash of all of that. A folder holds the same search when its id
 * is the same: then an interrupted search may be resumed there and a finished one replaced.
 */
final class EvolveDefinition {
    static final JobDefinition DEFINITION = new JobDefinition("_EVOLVE.yaml", "evolve_id");
    static final String FILE = DEFINITION.file();

    private EvolveDefinition() {
    }

    /** The content of {@code _EVOLVE.yaml} for {@code spec}, its id first. */
    static ObjectNode of(EvolveSpec spec) {
        ObjectNode body = JobDefinition.body();
        body.put("name", spec.name());
        body.set("base", spec.base());
        body.put("fitness_weights", spec.fitnessText());
        ObjectNode policies = body.putObject("policies");
        spec.policies().forEach(policies::set);
        ArrayNode params = body.putArray("search");
        spec.params().forEach(p -> params.add(JobDefinition.tree(p)));
        body.putObject("cmaes").put("population", spec.population()).put("generations", spec.generations())
                .put("seed", spec.seed());
        body.set("train", split(spec.train()));
        body.set("held_out", split(spec.heldOut()));
        ObjectNode baselines = body.putObject("baselines");
        spec.baselines().forEach((label, bundle) -> {
            ObjectNode b = baselines.putObject(label);
            bundle.forEach(b::set);
        });
        return DEFINITION.identify(body, spec.baseDir());
    }

    private static ObjectNode split(EvolveSpec.Split s) {
        ObjectNode n = JobDefinition.body();
        ObjectNode w = n.putObject("workloads");
        s.workloads().forEach(w::set);
        ArrayNode seeds = n.putArray("seeds");
        s.seeds().forEach(seeds::add);
        return n;
    }
}
