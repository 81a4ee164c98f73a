package io.servesim.sweep;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.servesim.config.ConfigException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Sweep-file errors name the exact path and the valid choices; unknown keys and ignored flags are errors. */
class SweepFileTest {
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    private static List<String> problems(String yaml) throws Exception {
        ConfigException e = assertThrows(ConfigException.class,
                () -> SweepFile.bind((ObjectNode) YAML.readTree(TestSweeps.BASE + yaml), Path.of(".")));
        return e.problems().stream().map(Object::toString).toList();
    }

    @Test
    void everyProblemNamesItsPath() throws Exception {
        List<String> p = problems("""
                name: t
                axes:
                  - {name: rate, path: workload.aggregate_rate, values: [10, 20]}
                  - {name: routing, path: policies.routing.name, values: [round-robin, least-loaded, round-robin]}
                  - {name: seed, path: engine.max_num_seqs, values: [8]}
                  - {name: tp, path: deployment.tp, values: {a: {deployment.tp: 1}}}
                zip: [[rate, nope]]
                seeds: [1]
                colour: blue
                """);
        assertTrue(p.contains("axes[1].values[2]: duplicate value 'round-robin'"), p.toString());
        assertTrue(p.stream().anyMatch(s -> s.startsWith("axes[2].name: 'seed' is already a column")), p.toString());
        assertTrue(p.stream().anyMatch(s -> s.startsWith("axes[3].path: not allowed with named alternatives")), p.toString());
        assertTrue(p.contains("zip[0][1]: unknown axis 'nope'; axes: rate, routing"), p.toString());
        assertTrue(p.stream().anyMatch(s -> s.startsWith("colour: unknown key; valid keys here: ")
                && s.contains("axes") && s.contains("outputs") && s.contains("replicates")), p.toString());
    }

    @Test
    void zippedAxesNeedEqualLengthsAndSeedsAreRequired() throws Exception {
        List<String> p = problems("""
                name: t
                axes:
                  - {name: rate, path: workload.aggregate_rate, values: [10, 20]}
                  - {name: seqs, path: engine.max_num_seqs, values: [8]}
                zip: [[rate, seqs]]
                outputs: {request: true}
                """);
        assertTrue(p.contains("zip[0]: zipped axes must have equal numbers of values; got [rate, seqs] with [2, 1]"), p.toString());
        assertTrue(p.contains("seeds: required: a non-empty list of seeds, or replicates: N"), p.toString());
        assertTrue(p.contains("outputs.request: unknown key; valid keys here: counterfactual_k, decisions, requests, scaling, sessions"), p.toString());
    }
}
