package io.servesim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.servesim.exit.ErrorReport;
import io.servesim.metrics.Column;
import io.servesim.metrics.Metric;
import io.servesim.metrics.MetricCatalog;
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
        List<String> all = new ArrayList<>(List.of("workload.num_requests=120", "deployment.instances=2"));
        all.addAll(List.of(sets));
        return evaluate(EXAMPLE, "throughput_rps:0.5,ttft_p99_ms:0.3,slo_attainment:0.2", candidate, format, seeds,
                counterfactualSample, all);
    }

    /** {@code candidate} on the base {@code config} under {@code weights}, with the config overrides {@code sets}. */
    static Out evaluate(Path config, String weights, Path candidate, String format, List<Long> seeds,
                        int counterfactualSample, List<String> sets) throws Exception {
        EvaluateCommand c = new EvaluateCommand();
        c.counterfactualSample = counterfactualSample;
        c.config = config;
        c.format = format;
        c.seeds = new ArrayList<>(seeds);
        c.options.policyConfig = candidate;
        c.options.settings.put(io.servesim.run.RunSettings.FITNESS_WEIGHTS, weights);
        c.options.sets = new ArrayList<>(sets);
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

    /**
     * Weights given by --fitness-weights: a renamed key works with one warning on stderr (not one per seed); an unknown
     * key is refused at the config path the flag sets, naming the flags as a possible source, not the base config alone.
     */
    @Test
    void fitnessWeightsFromTheFlagWarnOnceAndAreRefusedAtTheFlag(@TempDir Path tmp) throws Exception {
        List<String> small = List.of("workload.num_requests=60", "deployment.instances=2");
        Out o = evaluate(EXAMPLE, "throughput:0.5,ttft_p99_ms:0.5", candidate(tmp, GOOD), "native", List.of(1L, 2L), 0,
                small);
        assertEquals(0, o.code(), o.err());
        String warning = "servesim evaluate: warning: fitness_weights: 'throughput' is now named 'throughput_rps'";
        assertEquals(1, o.err().split(java.util.regex.Pattern.quote(warning), -1).length - 1, o.err());
        Out bad = evaluate(EXAMPLE, "throughput_rpz:0.5", candidate(tmp, GOOD), "native", List.of(1L), 0, small);
        assertEquals(2, bad.code());
        assertTrue(bad.err().startsWith("servesim evaluate: invalid base config " + EXAMPLE + " or flags: fitness_weights:"
                + " unknown fitness metric 'throughput_rpz'; valid: "), bad.err());
    }

    @Test
    void aFailedRunIsNamedWithWhatTheRunsBeforeItScored(@TempDir Path tmp) throws Exception {
        // a router that throws at its 50th call: the 30-request workload finishes, the 100-request one fails
        Path source = Files.writeString(tmp.resolve("Boom.java"), """
                import io.servesim.policy.api.*;
                public class Boom implements RoutingPolicy {
                    private int calls;
                    public int route(RequestView r, Instances in, long now) {
                        if (++calls == 50) { throw new IllegalStateException("boom"); }
                        return 0;
                    }
                }
                """);
        EvaluateCommand c = new EvaluateCommand();
        c.config = EXAMPLE;
        c.workloads = new ArrayList<>(List.of(
                Files.writeString(tmp.resolve("w30.yaml"), "scenario: chat\nnum_requests: 30\naggregate_rate: 10\n"),
                Files.writeString(tmp.resolve("w100.yaml"), "scenario: chat\nnum_requests: 100\naggregate_rate: 10\n")));
        c.options.policyConfig = candidate(tmp, "routing: {name: code, params: {source: " + source + "}}\n");
        c.options.settings.put(io.servesim.run.RunSettings.FITNESS_WEIGHTS, "ttft_p99_ms:1");
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = EvaluateCommand.run(c, new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
                new ErrorReport("evaluate", new PrintStream(err, true, StandardCharsets.UTF_8), false));
        String text = err.toString(StandardCharsets.UTF_8);
        assertEquals(1, code, text);
        assertTrue(text.startsWith("servesim evaluate: run w100.yaml@seed=42 (2 of 2) failed; the runs before it finished:"
                + " w30.yaml@seed=42 fitness "), text);
        assertTrue(text.contains("route threw IllegalStateException: boom") && text.contains("Boom.java:5"), text);
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
        // the raw metrics are the catalog's columns, by name (the cells/ row of the run), then the per-class breakdown
        List<String> columns = new ArrayList<>(MetricCatalog.COLUMNS.stream().map(Column::name).toList());
        columns.add("by_slo_class");
        assertEquals(columns, iterator(run.get("raw_metrics")));
        assertTrue(run.get("raw_metrics").get("by_slo_class").get("standard").get("ttft_ms").has("p99"));
        assertEquals(List.of("routing_concentration", "rejection_rate", "preemption_pressure", "prefix_hit_rate"),
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
        assertEquals(List.of("metrics", "artifacts"), iterator(o.json()));
        JsonNode j = o.json().get("metrics");
        assertEquals(j.get("fitness").asDouble(), j.get("combined_score").asDouble());
        j.fields().forEachRemaining(e -> assertTrue(e.getValue().isNumber(), e.getKey() + " is " + e.getValue()));
        assertTrue(j.has("routing_concentration"));
        // every numeric column of the catalog a run defines, by its name, its mean over the runs defining it: the same
        // runs' native raw metrics say which
        JsonNode runs = evaluate(candidate(tmp, GOOD), "native", List.of(1L, 2L)).json().get("runs");
        for (Column c : MetricCatalog.COLUMNS) {
            List<Double> defined = new ArrayList<>();
            runs.forEach(r -> {
                if (!r.get("raw_metrics").get(c.name()).isNull()) {
                    defined.add(r.get("raw_metrics").get(c.name()).asDouble());
                }
            });
            assertEquals(c.kind() != Metric.Kind.TEXT && !defined.isEmpty(), j.has(c.name()), c.name());
            if (j.has(c.name())) {
                double mean = defined.stream().mapToDouble(Double::doubleValue).average().orElseThrow();
                assertEquals(mean, j.get(c.name()).asDouble(), 1e-9 * Math.max(1, Math.abs(mean)), c.name());
            }
        }
        assertTrue(j.has("ttft_p99_ms") && !j.has("time_to_ready_mean_s"), "a fixed fleet never waits for a replica");
        String trace = o.json().get("artifacts").get("decision_trace").asText();
        // one trace summary per run, each under its label
        assertTrue(trace.startsWith("== llama8b-h100.yaml@seed=1 ==\ndecisions: "), trace);
        assertTrue(trace.contains("\n== llama8b-h100.yaml@seed=2 ==\ndecisions: "), trace);
        assertEquals(2, trace.split("score regret", -1).length - 1, trace);
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
        assertTrue(negative.json().get("problems").get(0).get("message").asText().startsWith("must be in [0, 1000], got -1"),
                negative.json().toString());
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

    static final Path AUTOSCALED = Path.of("src", "test", "resources", "autoscaling", "autoscaled-8b.yaml");
    static final String AUTOSCALER = "autoscale: {name: threshold, params: {signal: in_flight, scale_up: 8, scale_down: 2,"
            + " cooldown: 2s}}\n";

    /**
     * An autoscaling candidate scored on its cost ({@code --fitness-weights cost_usd:1}): every format shows the
     * autoscaler's scale-ups and -downs, oscillations, replica-seconds and cost. The cost is replica-seconds / 3600 x
     * 3.00 USD per H100-hour (the bundled price) x TP 1, and the fitness 1 / (1 + cost_usd / 1 USD); scored on
     * replica-seconds instead, 1 / (1 + replica_seconds / 3600).
     */
    @Test
    void everyFormatSeesWhatAnAutoscalerChanges(@TempDir Path tmp) throws Exception {
        Path cand = candidate(tmp, AUTOSCALER);
        Out nat = evaluate(AUTOSCALED, "cost_usd:1", cand, "native", List.of(1L), 0, List.of());
        assertEquals(0, nat.code(), nat.err());
        JsonNode raw = nat.json().get("runs").get(0).get("raw_metrics");
        assertTrue(raw.get("scale_ups").asLong() > 0 && raw.get("scale_downs").asLong() > 0, raw.toString());
        assertTrue(raw.has("oscillations") && raw.has("replica_seconds_ready"), raw.toString());
        double replicaSeconds = raw.get("replica_seconds").asDouble();
        double cost = raw.get("cost_usd").asDouble();
        assertEquals(replicaSeconds / 3600 * 3.00, cost, 1e-9);
        assertEquals(1 / (1 + cost), nat.json().get("fitness").asDouble(), 1e-12);

        Out oe = evaluate(AUTOSCALED, "cost_usd:1", cand, "openevolve", List.of(1L), 0, List.of());
        assertEquals(0, oe.code(), oe.err());
        for (String k : List.of("scale_ups", "scale_downs", "oscillations", "replica_seconds", "cost_usd")) {
            assertEquals(raw.get(k).asDouble(), oe.json().get("metrics").get(k).asDouble(), 1e-12, k);
        }
        Out gepa = evaluate(AUTOSCALED, "cost_usd:1", cand, "gepa", List.of(1L), 0, List.of());
        assertEquals(0, gepa.code(), gepa.err());
        assertEquals(raw, gepa.json().get("outputs").get(0).get("raw_metrics"));
        assertEquals(1 / (1 + cost), gepa.json().get("scores").get(0).asDouble(), 1e-12);

        Out byReplicaSeconds = evaluate(AUTOSCALED, "replica_seconds:1", cand, "native", List.of(1L), 0, List.of());
        assertEquals(1 / (1 + replicaSeconds / 3600), byReplicaSeconds.json().get("fitness").asDouble(), 1e-12);
    }

    /**
     * A P/D base (decider always: every request prefills remotely and its KV moves to the decode pool) shows the
     * transfers and goodput per GPU (goodput_rps over its 4 GPUs); the per-tier hit rates add up to the prefix hit rate.
     */
    @Test
    void rawMetricsShowPdTransfersAndKvTierHits(@TempDir Path tmp) throws Exception {
        Out o = evaluate(Path.of("..", "sweeps", "configs", "llama8b-h100-pd.yaml"), "goodput_rps:1", candidate(tmp, GOOD),
                "native", List.of(1L), 0, List.of("workload.num_requests=60"));
        assertEquals(0, o.code(), o.err());
        JsonNode raw = o.json().get("runs").get(0).get("raw_metrics");
        assertEquals(60, raw.get("pd_remote").asLong());
        assertEquals(raw.get("completed").asLong(), raw.get("pd_transfers").asLong());
        assertEquals(raw.get("goodput_rps").asDouble() / 4, raw.get("goodput_per_gpu_rps").asDouble(), 1e-12);
        assertEquals(raw.get("prefix_hit_rate").asDouble(),
                raw.get("gpu_hit_rate").asDouble() + raw.get("cpu_hit_rate").asDouble(), 1e-12);
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
