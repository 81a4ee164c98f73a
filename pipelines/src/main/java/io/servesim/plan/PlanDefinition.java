package io.servesim.plan;

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
 * {@code _PLAN.yaml}, beside a plan's results and first in its staging folder: the plan as resolved (the base config
 * inlined, the target, the SLOs, every candidate with its assignments and price, the search settings and seed) and its
 * {@code plan_id}, a hash of all of that (not of the folder its relative paths resolve against, {@code base_dir}). A folder holds the same plan when its id is the same: then an interrupted plan
 * may be resumed there and a finished one replaced.
 */
final class PlanDefinition {
    static final String FILE = "_PLAN.yaml";
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    private PlanDefinition() {
    }

    /** The content of {@code _PLAN.yaml} for {@code spec}, its id first. */
    static ObjectNode of(PlanSpec spec) {
        ObjectNode body = YAML.createObjectNode();
        body.put("name", spec.name());
        body.set("base", spec.base());
        if (spec.capacityOnly()) {
            body.put("start_rps", spec.startRps());
        } else {
            body.put("target_rate_rps", spec.targetRps());
        }
        ArrayNode slo = body.putArray("slo");
        spec.slos().forEach(s -> slo.addObject().put(s.metric(), s.bound()));
        ArrayNode candidates = body.putArray("candidates");
        for (Candidate c : spec.candidates()) {
            ObjectNode n = candidates.addObject();
            n.put("index", c.index());
            n.put("id", c.id());
            n.put("usd_per_gpu_hour", c.usdPerGpuHour());
            n.put("price_source", c.priceSource());
            ObjectNode set = n.putObject("assignments");
            c.assignments().forEach(set::set);
        }
        body.set("search", YAML.valueToTree(spec.search()));
        spec.seeds().forEach(body.putArray("seeds")::add);
        ObjectNode root = YAML.createObjectNode();
        root.put("plan_id", Grid.cellId(body.toString()));
        root.put("base_dir", spec.baseDir().toString()); // not hashed: like a cell id, the id is the plan's content
        root.setAll(body);
        return root;
    }

    /** The plan id of the {@code _PLAN.yaml} in {@code folder}, if it holds a readable one. */
    static Optional<String> id(Path folder) {
        return read(folder).map(n -> n.path("plan_id").asText(null));
    }

    /** The {@code _PLAN.yaml} in {@code folder}, if readable. */
    static Optional<JsonNode> read(Path folder) {
        Path f = folder.resolve(FILE);
        if (!Files.isRegularFile(f)) {
            return Optional.empty();
        }
        try {
            JsonNode n = YAML.readTree(f.toFile());
            return n != null && n.has("plan_id") ? Optional.of(n) : Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /** Writes {@code spec}'s definition into {@code folder} through a temporary file renamed into place. */
    static void write(Path folder, PlanSpec spec) throws IOException {
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
