package io.servesim.workload;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.servesim.config.ConfigException;
import io.servesim.config.ConfigNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Assertions;

/** Test helpers: parse YAML, bind workload sections, collect problems. */
public final class Yaml {
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    private Yaml() {
    }

    public static JsonNode tree(String yaml) {
        try {
            return YAML.readTree(yaml);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Binds {@code workload: <yaml>} of a config whose directory is {@code baseDir}. */
    public static WorkloadSpec workload(String yaml, Path baseDir, long horizonUs) {
        ConfigNode root = ConfigNode.root(tree("workload:\n" + yaml.indent(2)));
        WorkloadSpec spec = WorkloadBinder.bindSection(root, baseDir, horizonUs, null);
        root.throwIfProblems();
        return spec;
    }

    public static WorkloadSpec workload(String yaml) {
        return workload(yaml, Path.of("."), 0);
    }

    public static GeneratorSpec generator(String yaml) {
        return (GeneratorSpec) workload(yaml);
    }

    /** The problems ("path: message") of binding {@code workload: <yaml>}, which must fail. */
    public static List<String> problems(String yaml, Path baseDir) {
        ConfigException e = Assertions.assertThrows(ConfigException.class, () -> workload(yaml, baseDir, 0));
        return e.problems().stream().map(ConfigException.Problem::toString).toList();
    }

    public static List<String> problems(String yaml) {
        return problems(yaml, Path.of("."));
    }
}
