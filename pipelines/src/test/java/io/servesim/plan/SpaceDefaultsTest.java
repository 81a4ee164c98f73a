package io.servesim.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What a plan's space takes from its base when it does not say: the TP its base deployment runs at. */
class SpaceDefaultsTest {
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    private static List<Integer> tps(String deployment, String space) throws Exception {
        ObjectNode tree = (ObjectNode) YAML.readTree("name: p\nbase: {deployment: " + deployment + ", workload: {scenario: chat}}\n"
                + "target_rate_rps: 10\nslo: [{ttft_p99_ms: 500}]\nspace: " + space + "\n");
        return PlanFile.bind(tree, Path.of(".")).candidates().stream().map(Candidate::tp).distinct().toList();
    }

    @Test
    void withoutSpaceTpTheBasesTpIsSearched() throws Exception {
        assertEquals(List.of(2), tps("{model: meta-llama/llama-3.1-8b-instruct, tp: 2}", "{gpus: [H100], replicas: {max: 2}}"));
        assertEquals(List.of(1), tps("{model: meta-llama/llama-3.1-8b-instruct}", "{gpus: [H100], replicas: {max: 2}}"));
        assertEquals(List.of(1, 4), tps("{model: meta-llama/llama-3.1-8b-instruct, tp: 2}",
                "{gpus: [H100], tp: [1, 4], replicas: {max: 2}}"));
    }
}
