package io.servesim.sweep;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Optional;
import java.util.UUID;

/**
 * The definition file of a job run as rounds of sweeps ({@code _PLAN.yaml} of a capacity plan, {@code _EVOLVE.yaml}
 * of a policy search), beside its results and first in its staging folder: the job as resolved, under its id (a hash
 * of that content, {@link Grid#cellId}) and the folder its relative paths resolve against ({@code base_dir}, not
 * hashed: like a cell id, the id is the job's content). A folder holds the same job when its id is the same.
 *
 * @param file  the file's name ({@code _PLAN.yaml})
 * @param idKey the key of the id in it ({@code plan_id})
 */
public record JobDefinition(String file, String idKey) {
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    /** A fresh mapping for a job's resolved content. */
    public static ObjectNode body() {
        return YAML.createObjectNode();
    }

    /** {@code value} (a record of settings) as a tree for {@link #body}. */
    public static JsonNode tree(Object value) {
        return YAML.valueToTree(value);
    }

    /** The file's content for a job resolved as {@code body} whose relative paths resolve against {@code baseDir}. */
    public ObjectNode identify(ObjectNode body, Path baseDir) {
        ObjectNode root = YAML.createObjectNode();
        root.put(idKey, Grid.cellId(body.toString()));
        root.put("base_dir", baseDir.toString());
        root.setAll(body);
        return root;
    }

    /** The id of the definition file in {@code folder}, if it holds a readable one. */
    public Optional<String> id(Path folder) {
        return read(folder).map(n -> n.path(idKey).asText(null));
    }

    /** The definition file in {@code folder}, if readable. */
    public Optional<JsonNode> read(Path folder) {
        Path f = folder.resolve(file);
        if (!Files.isRegularFile(f)) {
            return Optional.empty();
        }
        try {
            JsonNode n = YAML.readTree(f.toFile());
            return n != null && n.has(idKey) ? Optional.of(n) : Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /** Writes {@code content} ({@link #identify}'s) into {@code folder} through a temporary file renamed into place. */
    public void write(Path folder, ObjectNode content) throws IOException {
        Path target = folder.resolve(file);
        Path tmp = folder.resolve("." + file + "." + UUID.randomUUID() + ".tmp");
        try {
            YAML.writeValue(tmp.toFile(), content);
            Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(tmp);
        }
    }
}
