package io.servesim.run;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.servesim.config.ConfigNode;
import io.servesim.workload.WorkloadBinder;
import io.servesim.workload.WorkloadSpec;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;

/** Binds an inline workload section (YAML flow mapping) for tests. */
final class Workloads {
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    private Workloads() {
    }

    static WorkloadSpec of(String yaml) {
        try {
            ConfigNode root = ConfigNode.root(YAML.readTree("workload: " + yaml));
            WorkloadSpec spec = WorkloadBinder.bindSection(root, Path.of("."), 0, null);
            root.throwIfProblems();
            return spec;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
