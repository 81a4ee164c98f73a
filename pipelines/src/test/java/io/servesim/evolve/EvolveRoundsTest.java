package io.servesim.evolve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.servesim.config.StrictJson;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A candidate is the template filled in, each searched value converted as its parameter's type says (a duration in
 * seconds to a duration, an integer rounded); a candidate the policy refuses is named with the problem at its config
 * path, and one whose config is an earlier one's is named as its twin; a candidate that cannot run ranks below every
 * run (value -1).
 */
class EvolveRoundsTest {
    private static final String SEARCH = """
            name: scale
            base:
              deployment: {model: meta-llama/llama-3.1-8b-instruct, hardware: H100, instances: 1, latency_model: roofline}
              autoscaling: {enabled: true, min: 1, max: 4}
            fitness_weights: "slo_attainment:1"
            policies: {autoscale: {name: threshold, params: {signal: in_flight, step: 1}}}
            search:
              autoscale.scale_up: {min: 1, max: 64, sigma: 8}
              autoscale.scale_down: {min: 0, max: 32, sigma: 4}
              autoscale.cooldown: {min: 15, max: 600, sigma: 60}
            train: {workloads: {chat: {scenario: chat, num_requests: 20}}, seeds: [1]}
            held_out: {workloads: {code: {scenario: code, num_requests: 20}}, seeds: [1]}
            """;

    @Test
    void fillsTheTemplateAndNamesCandidatesThatCannotRun(@TempDir Path tmp) throws Exception {
        Path f = Files.writeString(tmp.resolve("e.yaml"), SEARCH);
        EvolveSpec spec = EvolveFile.bind((ObjectNode) StrictJson.readMapping(f), tmp);
        // cooldown 90.5 s is 90,500,000 us, rendered 90500ms
        EvolveRounds.Entry ok = EvolveRounds.candidate(spec, "ok", new double[] {32, 6, 90.5});
        var node = ok.assignments().get("policies.autoscale");
        assertEquals("threshold", node.get("name").asText());
        assertEquals(32.0, node.get("params").get("scale_up").asDouble());
        assertEquals("90500ms", node.get("params").get("cooldown").asText());
        assertEquals("in_flight", node.get("params").get("signal").asText());
        EvolveRounds.Entry refused = EvolveRounds.candidate(spec, "refused", new double[] {8, 8, 60});
        EvolveRounds.Entry twin = EvolveRounds.candidate(spec, "twin", new double[] {32, 6, 90.5});
        Map<String, String> why = EvolveRounds.unrunnable(spec, List.of(ok, refused, twin), spec.train());
        assertEquals(2, why.size(), why.toString());
        assertTrue(why.get("refused").contains("policies.autoscale.params.scale_down: must be < scale_up"), why.toString());
        assertEquals(EvolveRounds.SAME_AS + "ok", why.get("twin"));
        assertEquals(-1, new Evaluated(1, 1, "refused", new double[] {8, 8, 60}, why.get("refused"), null).value());
    }

    @Test
    void integerAndDurationParametersRunAsTheirTypeSays() {
        Param step = new Param("autoscale", "step", Param.Type.INTEGER, 1, 8, 2, 1);
        Param cooldown = new Param("autoscale", "cooldown", Param.Type.SECONDS, 0, 600, 60, 30);
        assertEquals(3, step.node(2.5).asLong()); // Math.round rounds half up
        assertEquals(3.0, step.effective(2.5));
        assertEquals("2m", cooldown.node(120.0000001).asText()); // 120,000,000.1 us rounds to 120 s = 2m
        assertEquals("autoscale_cooldown", cooldown.column());
    }

    @Test
    void candidatesWhoseRunsScoreAlikeTieToTheBit() {
        // left to right, (0.1 + 0.2) + 0.3 = 0.6000000000000001 but (0.3 + 0.2) + 0.1 = 0.6: two candidates whose runs
        // came in other cell-id orders would differ in the last bit, and the search would pick one on that
        assertTrue((0.1 + 0.2) + 0.3 != (0.3 + 0.2) + 0.1);
        double a = EvolveRounds.sortedSum(new double[] {0.1, 0.2, 0.3}, 3);
        double b = EvolveRounds.sortedSum(new double[] {0.3, 0.2, 0.1, 99}, 3);
        double c = EvolveRounds.sortedSum(new double[] {0.2, 0.3, 0.1}, 3);
        assertEquals(Double.doubleToLongBits(a), Double.doubleToLongBits(b));
        assertEquals(Double.doubleToLongBits(a), Double.doubleToLongBits(c));
    }
}
