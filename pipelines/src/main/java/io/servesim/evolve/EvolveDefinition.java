package io.servesim.evolve;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.servesim.sweep.Grid;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Optional;
import java.util.UUID;

/**
 * {@code _EVOLVE.yaml}, beside a search's results and first in its staging folder: the search as resolved (the base
 * config inlined, the fitness, the template, every searched parameter, CMA-ES's settings, the splits and baselines)
 * and its {@code evolve_id}, a hash of all of that. A folder holds the same search when its id is the same: then an
 * interrupted search may be resumed there and a finished one replaced.
 */
final class EvolveDefinition {
    static final String FILE = "_EVOLVE.yaml";
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    private EvolveDefinition() {
    }

    /** The content of {@code _EVOLVE.yaml} for {@code spec}, its id first. */
    static ObjectNode of(EvolveSpec spec) {
        ObjectNode body = YAML.createObjectNode();
        body.put("name", spec.name());
        body.set("base", spec.base());
        body.put("fitness_weights", spec.fitnessText());
        ObjectNode policies = body.putObject("policies");
        spec.policies().forEach(policies::set);
        ArrayNode params = body.putArray("search");
        spec.params().forEach(p -> params.add(YAML.valueToTree(p)));
        body.putObject("cmaes").put("population", spec.population()).put("generations", spec.generations())
                .put("seed", spec.seed());
        body.set("train", split(spec.train()));
        body.set("held_out", split(spec.heldOut()));
        ObjectNode baselines = body.putObject("baselines");
        spec.baselines().forEach((label, bundle) -> {
            ObjectNode b = baselines.putObject(label);
            bundle.forEach(b::set);
        });
        ObjectNode root = YAML.createObjectNode();
        root.put("evolve_id", Grid.cellId(body.toString()));
        root.put("base_dir", spec.baseDir().toString()); // not hashed: the id is the search's content
        root.setAll(body);
        return root;
    }

    private static ObjectNode split(EvolveSpec.Split s) {
        ObjectNode n = YAML.createObjectNode();
        ObjectNode w = n.putObject("workloads");
        s.workloads().forEach(w::set);
        ArrayNode seeds = n.putArray("seeds");
        s.seeds().forEach(seeds::add);
        return n;
    }

    /** The evolve id of the {@code _EVOLVE.yaml} in {@code folder}, if it holds a readable one. */
    static Optional<String> id(Path folder) {
        return read(folder).map(n -> n.path("evolve_id").asText(null));
    }

    /** The {@code _EVOLVE.yaml} in {@code folder}, if readable. */
    static Optional<JsonNode> read(Path folder) {
        Path f = folder.resolve(FILE);
        if (!Files.isRegularFile(f)) {
            return Optional.empty();
        }
        try {
            JsonNode n = YAML.readTree(f.toFile());
            return n != null && n.has("evolve_id") ? Optional.of(n) : Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /** Writes {@code spec}'s definition into {@code folder} through a temporary file renamed into place. */
    static void write(Path folder, EvolveSpec spec) throws IOException {
        Path file = folder.resolve(FILE);
        Path tmp = folder.resolve("." + FILE + "." + UUID.randomUUID() + ".tmp");
        try {
            YAML.writeValue(tmp.toFile(), of(spec));
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(tmp);
        }
    }
}
