package io.servesim.workload.dist;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.servesim.config.ConfigException;
import io.servesim.config.ConfigNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Assertions;

/** Binds distribution blocks for tests. */
final class Dists {
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    private Dists() {
    }

    static DistributionSpec bind(String yaml, DistributionBinder.Kind kind, Path baseDir) {
        ConfigNode root;
        try {
            root = ConfigNode.root(YAML.readTree("d: " + yaml));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        DistributionSpec d = DistributionBinder.bind(root.child("d"), kind, baseDir);
        root.throwIfProblems();
        return d;
    }

    static DistributionSpec real(String yaml) {
        return bind(yaml, DistributionBinder.Kind.REAL, Path.of("."));
    }

    static List<String> problems(String yaml, DistributionBinder.Kind kind) {
        ConfigException e = Assertions.assertThrows(ConfigException.class, () -> bind(yaml, kind, Path.of(".")));
        return e.problems().stream().map(ConfigException.Problem::toString).toList();
    }
}
