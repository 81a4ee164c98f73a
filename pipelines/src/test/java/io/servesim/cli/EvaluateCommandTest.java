package io.servesim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.servesim.exit.ErrorReport;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code servesim evaluate}: each format's JSON shape, invalid candidates as JSON, a bad base as an error. */
class EvaluateCommandTest {
    static final Path EXAMPLE = Path.of("..", "sweeps", "configs", "llama8b-h100.yaml");
    static final String GOOD = "routing: {name: weighted-scoring, params: {load: 2, cache_affinity: 0.5}}\n";

    record Out(int code, JsonNode json, String err) {
    }

    static Out evaluate(Path candidate, String format, List<Long> seeds, String... sets) throws Exception {
        return evaluate(candidate, format, seeds, 0, sets);
    }

    static Out evaluate(Path candidate, String format, List<Long> seeds, int counterfactualSample, String... sets)
            throws Exception {
        EvaluateCommand c = new EvaluateCommand();
        c.counterfactualSample = counterfactualSample;
        c.config = EXAMPLE;
        c.format = format;
        c.seeds = new ArrayList<>(seeds);
        c.options.policyConfig = candidate;
        c.options.settings.put(io.servesim.run.RunSettings.FITNESS_WEIGHTS, "throughput:0.5,p99_ttft:0.3,slo_attainment:0.2");
        c.options.sets = new ArrayList<>(List.of("workload.num_requests=120", "deployment.instances=2"));
        c.options.sets.addAll(List.of(sets));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = EvaluateCommand.run(c, new PrintStream(out, true, StandardCharsets.UTF_8),
                new ErrorReport("evaluate", new PrintStream(err, true, StandardCharsets.UTF_8), false));
        String text = out.toString(StandardCharsets.UTF_8);
        return new Out(code, text.isBlank() ? null : new ObjectMapper().readTree(text), err.toString(StandardCharsets.UTF_8));
    }

    static Path candidate(Path dir, String yaml) throws Exception {
        Path p = dir.resolve("candidate-" + Integer.toHexString(yaml.hashCode()) + ".yaml");
        Files.writeString(p, yaml);
        return p;
    }

    @Test
    void nativeIsTheEvaluationResultOfEveryRun(@TempDir Path tmp) throws Exception {
        Out o = evaluate(candidate(tmp, GOOD), "native", List.of(1L, 2L));
        assertEquals(0, o.code(), o.err());
        JsonNode j = o.json();
        assertEquals(2, j.get("runs").size());
        double mean = (j.get("runs").get(0).get("fitness").asDouble() + j.get("runs").get(1).get("fitness").asDouble()) / 2;
        assertEquals(mean, j.get("fitness").asDouble(), 1e-12);
        assertTrue(j.get("fitness").asDouble() > 0 && j.get("fitness").asDouble() <= 1);
        JsonNode run = j.get("runs").get(0);
        assertEquals("llama8b-h100.yaml@seed=1", run.get("label").asText());
        for (String k : List.of("ttft_ms", "tpot_ms", "e2e_ms", "requests_per_sec", "tokens_per_sec", "slo_attainment",
                "jain_fairness_index", "cache_hit_rate", "preemption_rate", "priority_inversions", "hol_blocking_events")) {
            assertTrue(run.get("raw_metrics").has(k), k);
        }
        assertEquals(List.of("routing_concentration", "rejection_rate", "preemption_pressure", "cache_hit_rate"),
                iterator(j.get("features")));
        assertEquals(120, run.get("trace_summary").get("by_policy").get("routing/weighted-scoring").asLong());
    }

    /**
     * {@code --counterfactual-sample 2}: each run's trace summary adds realized regret, 2 sampled routing
     * decisions x (K - 1 = 2) alternatives each = 4 re-simulated outcomes, each naming an alternative
     * other than the chosen instance; without the flag there is none.
     */
    @Test
    void evaluateReportsRealizedRegretWhenAsked(@TempDir Path tmp) throws Exception {
        Path cand = candidate(tmp, GOOD);
        Out o = evaluate(cand, "native", List.of(1L), 2, "deployment.instances=3");
        assertEquals(0, o.code(), o.err());
        JsonNode trace = o.json().get("runs").get(0).get("trace_summary");
        JsonNode realized = trace.get("realized_regret");
        assertEquals(4, realized.size());
        for (JsonNode r : realized) {
            assertTrue(r.get("chosen").asInt() != r.get("alternative").asInt());
        }
        assertTrue(trace.has("disagreements"));
        Out plain = evaluate(cand, "native", List.of(1L), "deployment.instances=3");
        assertFalse(plain.json().get("runs").get(0).get("trace_summary").has("realized_regret"));
    }

    @Test
    void openEvolveIsAnEvaluationResultOfNumbersAndTheTraceAsAnArtifact(@TempDir Path tmp) throws Exception {
        Out o = evaluate(candidate(tmp, GOOD), "openevolve", List.of(1L, 2L));
        assertEquals(0, o.code(), o.err());
        assertEquals(List.of("metrics", "artifacts"), fieldNames(o.json()));
        JsonNode j = o.json().get("metrics");
        assertEquals(j.get("fitness").asDouble(), j.get("combined_score").asDouble());
        j.fields().forEachRemaining(e -> assertTrue(e.getValue().isNumber(), e.getKey() + " is " + e.getValue()));
        assertTrue(j.has("routing_concentration"));
        String trace = o.json().get("artifacts").get("decision_trace").asText();
        // one trace summary per run, each under its label
        assertTrue(trace.startsWith("== llama8b-h100.yaml@seed=1 ==\ndecisions: "), trace);
        assertTrue(trace.contains("\n== llama8b-h100.yaml@seed=2 ==\ndecisions: "), trace);
        assertEquals(2, trace.split("score regret", -1).length - 1, trace);
    }

    private static List<String> fieldNames(JsonNode j) {
        List<String> names = new java.util.ArrayList<>();
        j.fieldNames().forEachRemaining(names::add);
        return names;
    }

    @Test
    void gepaHasOneOutputScoreAndTrajectoryPerRun(@TempDir Path tmp) throws Exception {
        Out o = evaluate(candidate(tmp, GOOD), "gepa", List.of(1L, 2L, 3L));
        assertEquals(0, o.code(), o.err());
        JsonNode j = o.json();
        assertEquals(3, j.get("scores").size());
        assertEquals(3, j.get("outputs").size());
        assertEquals(3, j.get("trajectories").size());
        assertTrue(j.get("trajectories").get(2).get("trace_summary").asText().contains("score regret"));
    }

    @Test
    void anInvalidCandidateIsAFitnessFreeErrorWithItsPaths(@TempDir Path tmp) throws Exception {
        Out unknownParam = evaluate(candidate(tmp, "routing: {name: weighted-scoring, params: {lod: 2}}\n"), "openevolve",
                List.of());
        assertEquals(2, unknownParam.code());
        assertEquals("invalid_candidate", unknownParam.json().get("error").asText());
        assertFalse(unknownParam.json().has("combined_score"));
        // named where the candidate writes it, not as the base config's policies.routing.params.lod
        assertTrue(unknownParam.json().get("problems").get(0).get("path").asText().endsWith(".yaml: routing.params.lod"),
                unknownParam.json().toString());
        Out negative = evaluate(candidate(tmp, "routing: {name: weighted-scoring, params: {load: -1}}\n"), "native", List.of());
        assertEquals(2, negative.code());
        assertTrue(negative.json().get("problems").get(0).get("message").asText().contains(">= 0"), negative.json().toString());
        Out unknownKind = evaluate(candidate(tmp, "autoscaler: {name: hpa}\n"), "gepa", List.of());
        assertEquals(2, unknownKind.code());
        assertTrue(unknownKind.json().get("problems").get(0).get("path").asText().endsWith(": autoscaler"),
                unknownKind.json().toString());
    }

    /**
     * A candidate without any policy kind would score the base config as if it were a candidate; one that is not
     * UTF-8 text cannot be read: both are invalid candidates, named by path.
     */
    @Test
    void aCandidateSettingNoPolicyOrUnreadableIsInvalid(@TempDir Path tmp) throws Exception {
        for (String empty : List.of("", "# nothing\n", "{}\n")) {
            Out o = evaluate(candidate(tmp, empty), "native", List.of());
            assertEquals(2, o.code(), o.err());
            assertEquals("invalid_candidate", o.json().get("error").asText(), o.json().toString());
            assertTrue(o.json().get("problems").get(0).get("message").asText().startsWith("sets no policy"), o.json().toString());
            assertFalse(o.json().has("fitness"));
        }
        Path binary = tmp.resolve("binary.yaml");
        Files.write(binary, new byte[] {(byte) 0xff, (byte) 0xfe, 0, 1});
        Out o = evaluate(binary, "native", List.of());
        assertEquals(2, o.code());
        assertEquals(binary.toString(), o.json().get("problems").get(0).get("path").asText());
        assertTrue(o.json().get("problems").get(0).get("message").asText().startsWith("not a UTF-8 text YAML file"),
                o.json().toString());
    }

    @Test
    void aBadBaseIsAnOrdinaryError(@TempDir Path tmp) throws Exception {
        Out o = evaluate(candidate(tmp, GOOD), "native", List.of(), "engine.max_num_seqs=0");
        assertEquals(2, o.code());
        assertEquals(null, o.json());
        assertTrue(o.err().contains("invalid base config"), o.err());
    }

    private static List<String> iterator(JsonNode n) {
        List<String> keys = new ArrayList<>();
        n.fieldNames().forEachRemaining(keys::add);
        return keys;
    }
}
