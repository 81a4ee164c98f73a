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

    /**
     * The engine property tests' random load: {@code requests} requests at {@code rate} per second, prompts ~300
     * tokens (to 3,000), outputs ~60 (to 400), a shared prefix of {@code prefixTokens} (none at 0).
     */
    static WorkloadSpec randomLoad(int rate, int requests, int prefixTokens) {
        return of("""
                {aggregate_rate: %d, num_requests: %d, input_distribution: {type: gaussian, params: {mean: 300, std_dev: 250, max: 3000}},
                 output_distribution: {type: gaussian, params: {mean: 60, std_dev: 60, max: 400}}%s}"""
                .formatted(rate, requests, prefixTokens > 0 ? ", prefix: {group: p, length: " + prefixTokens + "}" : ""));
    }
}
