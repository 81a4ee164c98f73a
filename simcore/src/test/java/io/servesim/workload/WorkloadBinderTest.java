package io.servesim.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.servesim.config.ConfigException;
import io.servesim.config.ConfigNode;
import io.servesim.workload.arrival.ArrivalSpec;
import io.servesim.workload.trace.ReplayMode;
import io.servesim.workload.trace.TraceFormat;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The workload section's strict binding: forms, defaults, and exact problem paths. */
class WorkloadBinderTest {
    /** The range of an arrival process's cv and why. */
    private static final String CV_RANGE = "(the Azure LLM inference traces of 2023 measure 1.07 for conversation and 2.91"
            + " for code; 20 is burstier than any measured serving traffic)";

    private static final String LENGTHS = """
            input_distribution: {type: lognormal, params: {mean: 800, sigma: 0.9, min: 16, max: 8000}}
            output_distribution: {type: exponential, params: {mean: 220}}
            """;

    @Test
    void shortFormIsOneDefaultClient() {
        GeneratorSpec g = Yaml.generator("aggregate_rate: 8\nnum_requests: 2000\n" + LENGTHS);
        assertEquals(1, g.clients().size());
        ClientSpec c = g.clients().get(0);
        assertEquals("default", c.id());
        assertEquals("standard", c.sloClass());
        assertEquals(1.0, c.rateFraction());
        assertInstanceOf(ArrivalSpec.Poisson.class, c.arrival());
        assertEquals(1.0, c.streamingProbability());
        assertNull(c.conversation());
        assertEquals(List.of(), g.warnings());
    }

    @Test
    void theIssuesExampleBinds() {
        GeneratorSpec g = Yaml.generator("""
                version: "2"
                seed: 42
                aggregate_rate: 10.0
                num_requests: 10000
                clients:
                  - id: chat
                    tenant_id: team-a
                    slo_class: interactive
                    rate_fraction: 0.7
                    arrival: {process: poisson}
                    input_distribution:  {type: lognormal, params: {mean: 800, sigma: 0.9, min: 16, max: 8000}}
                    output_distribution: {type: exponential, params: {mean: 220}}
                    prefix: {group: system-a, length: 512}
                    priority_distribution: {type: constant, params: {value: 1}}
                    streaming_probability: 0.9
                    conversation: {probability: 0.6, turns: {type: uniform, params: {min: 2, max: 8}},
                                   think_time_us: {type: exponential, params: {mean: 3000000}}, context_growth: accumulate}
                    lifecycle: {start_us: 0, stop_us: 600000000}
                    network: {bytes_per_token: 4, bandwidth_mbps: 100, rtt_us: 20000}
                  - id: batch
                    rate_fraction: 0.3
                    arrival: {process: gamma, cv: 2.5}
                """ + LENGTHS.indent(4));
        assertEquals(42, g.seed().getAsLong());
        assertEquals(2, g.clients().size());
        ClientSpec chat = g.clients().get(0);
        assertEquals("team-a", chat.tenantId());
        assertEquals(new PrefixSpec("system-a", 512), chat.prefix());
        assertEquals(new NetworkSpec(4, 100, 20_000), chat.network());
        assertEquals(600_000_000L, chat.stopUs());
        assertTrue(chat.conversation().accumulate());
        assertEquals(new ArrivalSpec.Gamma(2.5), g.clients().get(1).arrival());
    }

    @Test
    void problemsNameExactPaths() {
        List<String> p = Yaml.problems("""
                aggregate_rate: 10
                num_requests: 10
                clients:
                  - {id: a, input_distribution: {type: constant, params: {value: 5}}, output_distribution: {type: constant, params: {value: 5}}}
                  - id: b
                    arrival: {process: gamma, cv: 0}
                    input_distribution: {type: lognormal, params: {mean: 800, sigma: -1}}
                    output_distribution: {type: zipf}
                    streaming_probability: 1.5
                    colour: blue
                  - id: a
                    arrival: {process: sometimes}
                    input_distribution: {type: gaussian, params: {mean: 10, std_dev: 1, min: 9, max: 3}}
                """);
        assertTrue(p.contains("workload.clients[1].arrival.cv: must be in (0, 20], got 0 " + CV_RANGE), p.toString());
        assertTrue(p.contains("workload.clients[1].input_distribution.params.sigma: must be > 0, got -1"), p.toString());
        assertTrue(p.contains("workload.clients[1].output_distribution.type: unknown value 'zipf'; valid: constant, "
                + "uniform, gaussian, exponential, lognormal, pareto, weibull, gamma, empirical"), p.toString());
        assertTrue(p.contains("workload.clients[1].streaming_probability: must be in [0, 1], got 1.5 (a probability)"), p.toString());
        assertTrue(p.stream().anyMatch(s -> s.startsWith("workload.clients[1].colour: unknown key; valid keys here: ")), p.toString());
        assertTrue(p.contains("workload.clients[2].arrival.process: unknown value 'sometimes'; valid: poisson, constant, "
                + "gamma, weibull, bursty, diurnal, distribution, spread"), p.toString());
        assertTrue(p.contains("workload.clients[2].input_distribution.params.min: min 9 > max 3"), p.toString());
        assertTrue(p.contains("workload.clients[2].output_distribution: required: the output length distribution, "
                + "e.g. {type: exponential, params: {mean: 220}}"), p.toString());
    }

    @Test
    void processParametersAreChecked() {
        List<String> p = Yaml.problems("""
                aggregate_rate: 10
                num_requests: 10
                clients:
                  - {id: a, arrival: {process: poisson, cv: 2}}
                  - {id: b, arrival: {process: bursty, spike_factor: 0.5, spike_interval_us: 100, spike_duration_us: 100}}
                  - {id: c, arrival: {process: diurnal, peak_to_trough_ratio: 3, peak_us: 90000000000}}
                  - {id: d, arrival: {process: weibull}}
                """);
        assertTrue(p.contains("workload.clients[0].arrival.cv: unknown key; valid keys here: process"), p.toString());
        assertTrue(p.contains("workload.clients[1].arrival.spike_factor: must be in [1, 10000], got 0.5 (the spike rate is this"
                + " multiple of the baseline: below 1 it is no spike, beyond 10^4 the baseline carries no traffic)"), p.toString());
        assertTrue(p.contains("workload.clients[1].arrival.spike_duration_us: must be < spike_interval_us (100us), got 100us"),
                p.toString());
        assertTrue(p.contains("workload.clients[2].arrival.peak_us: must be < period_us (24h), got 25h"), p.toString());
        assertTrue(p.contains("workload.clients[3].arrival.cv: required for weibull (coefficient of variation of the gaps)"),
                p.toString());
    }

    @Test
    void keysInMicrosecondsAlsoTakeUnits() {
        GeneratorSpec g = Yaml.generator("""
                aggregate_rate: 10
                horizon_us: 2m
                arrival: {process: diurnal, period_us: 24h, peak_to_trough_ratio: 3, peak_us: 14h}
                lifecycle: {start_us: 1.5s, stop_us: 90000000}
                network: {rtt_us: 20ms, bandwidth_mbps: 100}
                """ + LENGTHS);
        ClientSpec c = g.clients().get(0);
        assertEquals(120_000_000L, g.horizonUs());
        assertEquals(new ArrivalSpec.Diurnal(86_400_000_000L, 3, 50_400_000_000L), c.arrival());
        assertEquals(1_500_000L, c.startUs());
        assertEquals(90_000_000L, c.stopUs(), "a bare number is microseconds");
        assertEquals(new NetworkSpec(4, 100, 20_000), c.network());
        assertEquals(List.of("workload.lifecycle.stop_us: must be > start_us (1500ms), got 1s"),
                Yaml.problems("aggregate_rate: 10\nnum_requests: 5\nlifecycle: {start_us: 1.5s, stop_us: 1s}\n" + LENGTHS));
    }

    @Test
    void topLevelProblems() {
        List<String> p = Yaml.problems("version: 3\nclients: []\n");
        assertTrue(p.contains("workload.version: unsupported version '3'; this is workload spec version 2"), p.toString());
        assertTrue(p.contains("workload.aggregate_rate: required: arrivals (requests or sessions) per second across all clients"),
                p.toString());
        assertTrue(p.contains("workload.num_requests: required: give num_requests or horizon_us (here or at the top level), "
                + "or the workload never ends"), p.toString());
        assertTrue(p.contains("workload.clients: must list at least one client"), p.toString());
        assertEquals(List.of("workload.scenario: unknown value 'chit-chat'; valid: chat, code, bursty-traffic, "
                + "diurnal-cycle, unfair-tenants, prefix-heavy, mixed-slo"), Yaml.problems("scenario: chit-chat"));
    }

    @Test
    void duplicateIdsAndFractionNormalisation() {
        assertTrue(Yaml.problems("aggregate_rate: 1\nnum_requests: 1\nclients:\n  - {id: x}\n  - {id: x}\n")
                .contains("workload.clients[1].id: duplicate client id 'x' (also clients[0])"));
        GeneratorSpec g = Yaml.generator("aggregate_rate: 10\nnum_requests: 10\nclients:\n"
                + ("  - {id: a, rate_fraction: 3, %s}\n  - {id: b, %s}\n").formatted(oneLine(), oneLine()));
        assertEquals(0.75, g.clients().get(0).rateFraction(), 1e-12);
        assertEquals(0.25, g.clients().get(1).rateFraction(), 1e-12);
        assertEquals(List.of("workload.clients: rate_fraction values sum to 4.0, not 1; normalised (each divided by 4.0)"),
                g.warnings());
        // clients that give no share split the rate equally, which needs no warning
        GeneratorSpec even = Yaml.generator("aggregate_rate: 10\nnum_requests: 10\nclients:\n"
                + ("  - {id: a, %s}\n  - {id: b, %s}\n").formatted(oneLine(), oneLine()));
        assertEquals(0.5, even.clients().get(0).rateFraction(), 1e-12);
        assertEquals(List.of(), even.warnings());
    }

    private static String oneLine() {
        return "input_distribution: {type: constant, params: {value: 5}}, output_distribution: {type: constant, params: {value: 5}}";
    }

    @Test
    void scenarioWithOverrides() {
        GeneratorSpec g = Yaml.generator("scenario: chat\naggregate_rate: 20\nnum_requests: 500\nslo_class: batch\n");
        assertEquals(20, g.aggregateRateRps());
        assertEquals(500, g.numRequests());
        assertEquals("batch", g.clients().get(0).sloClass());
        assertEquals("gamma", g.clients().get(0).input().type());
        assertEquals(new ArrivalSpec.Gamma(1.072), g.clients().get(0).arrival());
        assertTrue(Yaml.problems("scenario: chat\naggregate_rate: -1\n").contains("workload.aggregate_rate: must be in (0, 1000000]"
                + " requests/s, got -1 (a million requests a second is beyond any serving fleet)"));
        // A block given next to the scenario replaces the scenario's block whole (no stray cv, shape, scale).
        GeneratorSpec poisson = Yaml.generator("""
                scenario: chat
                arrival: {process: poisson}
                input_distribution: {type: exponential, params: {mean: 500}}
                """);
        assertEquals(new ArrivalSpec.Poisson(), poisson.clients().get(0).arrival());
        assertEquals("exponential", poisson.clients().get(0).input().type());
        // clients given replace a single-client scenario's client, whose keys stand at the scenario's top level; its
        // rate and request count stay
        GeneratorSpec mine = Yaml.generator("""
                scenario: chat
                clients:
                  - {id: mine, input_distribution: {type: constant, params: {value: 100}},
                     output_distribution: {type: constant, params: {value: 10}}}
                """);
        assertEquals(List.of("mine"), mine.clients().stream().map(ClientSpec::id).toList());
        assertEquals(5.53, mine.aggregateRateRps());
        assertEquals(10_000, mine.numRequests());
        assertEquals(new ArrivalSpec.Poisson(), mine.clients().get(0).arrival(), "the client's own default, not chat's gamma");
    }

    @Test
    void aTraceIsRefusedBesideAScenarioAndBesideAGeneratedWorkloadsKeys() {
        assertEquals(List.of("workload.trace: cannot go with scenario chat: a trace replays its own requests, the scenario"
                + " generates them; remove one of the two"), Yaml.problems("scenario: chat\ntrace: {format: csv, path: t.csv}\n"));
        assertEquals(List.of("workload.num_requests: not used beside a trace: trace.max_requests caps the requests replayed"
                        + " (--num-requests sets it)",
                "workload.horizon_us: not used beside a trace: the run's top-level horizon_us ends the replay"),
                Yaml.problems("trace: {format: csv, path: t.csv}\nnum_requests: 5\nhorizon_us: 9\n").stream()
                        .filter(p -> !p.contains("t.csv")).toList());
    }

    @Test
    void workloadFileByPathRelativeToTheConfig(@TempDir Path dir) throws Exception {
        Files.createDirectories(dir.resolve("w"));
        Files.writeString(dir.resolve("w/chat.yaml"), "aggregate_rate: 4\nnum_requests: 9\n" + LENGTHS);
        Files.writeString(dir.resolve("w/bad.yaml"), "aggregate_rate: 4\nnum_requests: 9\narrival: {process: gamma, cv: -1}\n" + LENGTHS);
        ConfigNode root = ConfigNode.root(Yaml.tree("workload: w/chat.yaml"));
        GeneratorSpec g = (GeneratorSpec) WorkloadBinder.bindSection(root, dir, 0, null);
        root.throwIfProblems();
        assertEquals(9, g.numRequests());
        assertEquals(4, ((GeneratorSpec) WorkloadBinder.load(dir.resolve("w/chat.yaml"), 0)).aggregateRateRps());

        ConfigNode bad = ConfigNode.root(Yaml.tree("workload: w/bad.yaml"));
        WorkloadBinder.bindSection(bad, dir, 0, null);
        ConfigException e = org.junit.jupiter.api.Assertions.assertThrows(ConfigException.class, bad::throwIfProblems);
        assertEquals("workload.arrival.cv: must be in (0, 20], got -1 " + CV_RANGE + " (in " + dir.resolve("w/bad.yaml") + ")",
                e.getMessage());
        ConfigNode missing = ConfigNode.root(Yaml.tree("workload: nope.yaml"));
        WorkloadBinder.bindSection(missing, dir, 0, null);
        e = org.junit.jupiter.api.Assertions.assertThrows(ConfigException.class, missing::throwIfProblems);
        assertEquals("workload: workload file " + dir.resolve("nope.yaml") + ": no such file", e.getMessage());
        assertNull(WorkloadBinder.bindSection(ConfigNode.root(Yaml.tree("seed: 1")), dir, 0, null));
    }

    @Test
    void bindsThroughTheRunConfigLoader() {
        // The path servesim run / validate take: SimConfigLoader binds workload: with everything else.
        String deployment = "deployment: {coefficients: {alpha: [1, 2, 3], beta: [4, 5, 6]}}\n";
        var c = io.servesim.run.SimConfigLoader.bind(Yaml.tree(deployment + "workload: {scenario: mixed-slo}"), Path.of("."));
        GeneratorSpec g = (GeneratorSpec) c.workload();
        assertEquals(List.of("realtime", "interactive", "batch"), g.clients().stream().map(ClientSpec::id).toList());
        ConfigException e = org.junit.jupiter.api.Assertions.assertThrows(ConfigException.class,
                () -> io.servesim.run.SimConfigLoader.bind(Yaml.tree(deployment
                        + "workload: {scenario: chat, arrival: {process: weibull, cv: 0}}"), Path.of(".")));
        assertEquals("workload.arrival.cv: must be in (0, 20], got 0 " + CV_RANGE, e.getMessage());
        // no workload: the default one, the chat scenario (SimConfigLoader.DEFAULT_WORKLOAD), for run, sweep and evaluate
        GeneratorSpec dflt = (GeneratorSpec) io.servesim.run.SimConfigLoader.bind(Yaml.tree(deployment), Path.of(".")).workload();
        assertEquals(List.of("chat"), dflt.clients().stream().map(ClientSpec::id).toList());
        assertEquals(1000, dflt.numRequests());
        assertEquals(5.53, dflt.aggregateRateRps());
    }

    @Test
    void traceSection(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("t.jsonl"), "");
        TraceSpec t = (TraceSpec) Yaml.workload("trace: {format: mooncake, path: t.jsonl, mode: concurrency, max_in_flight: 64}",
                dir, 0);
        assertEquals(TraceFormat.MOONCAKE, t.format());
        assertEquals(ReplayMode.CONCURRENCY, t.mode());
        assertEquals(64, t.maxInFlight());
        assertEquals(512, t.blockSizeMustDivide());
        List<String> p = Yaml.problems("trace: {format: parquet, path: missing.csv, arrival_speedup_ratio: 0, max_in_flight: 3}", dir);
        assertTrue(p.contains("workload.trace.format: unknown value 'parquet'; valid: csv, azure, mooncake, vllm"), p.toString());
        assertTrue(p.contains("workload.trace.path: trace file " + dir.resolve("missing.csv") + ": no such file"), p.toString());
        assertTrue(p.contains("workload.trace.arrival_speedup_ratio: must be in (0, 10000], got 0 (10^4 times compresses a day"
                + " of trace into under 9 s)"), p.toString());
        assertTrue(p.contains("workload.trace.max_in_flight: only for mode: concurrency"), p.toString());
        assertTrue(Yaml.problems("trace: {format: csv, path: t.jsonl, mode: concurrency}", dir)
                .contains("workload.trace.max_in_flight: required for mode: concurrency (requests kept resident)"));
        assertTrue(Yaml.problems("trace: {format: csv, path: t.jsonl}\naggregate_rate: 3", dir)
                .contains("workload.aggregate_rate: not used beside a trace: the trace's timestamps are its arrivals"
                        + " (trace.arrival_speedup_ratio scales them)"));
        assertTrue(Yaml.problems("trace: {format: csv, path: t.jsonl}\nrate: 3", dir)
                .contains("workload.rate: unknown key; valid keys here: inference_perf, scenario, trace, version"));
    }

    @Test
    void aMooncakeKeyTheReaderWouldSkipIsAWarning(@TempDir Path dir) throws Exception {
        // line 2 misspells delay, line 3 again and adds a key of its own; line 4 is not JSON (the reader's to refuse)
        Files.writeString(dir.resolve("t.jsonl"), String.join("\n",
                "{\"timestamp\": 0, \"input_length\": 10, \"output_length\": 2, \"session_id\": \"s\"}",
                "{\"input_length\": 10, \"output_length\": 2, \"session_id\": \"s\", \"delai\": 5000}",
                "{\"input_length\": 10, \"output_length\": 2, \"session_id\": \"s\", \"delai\": 5000, \"model\": \"m\"}",
                "not json", ""));
        String fields = "; a line's keys: timestamp, input_length, output_length, hash_ids, session_id, delay";
        assertEquals(List.of(
                "workload.trace.path: key 'delai' (line 2 and 1 more of the first 4) is not a Mooncake trace key and is ignored"
                        + fields,
                "workload.trace.path: key 'model' (line 3 of the first 4) is not a Mooncake trace key and is ignored" + fields),
                Yaml.workload("trace: {format: mooncake, path: t.jsonl}", dir, 0).warnings());
        // other formats carry extra columns as a matter of course (a vLLM benchmark's result lines)
        Files.writeString(dir.resolve("v.jsonl"), "{\"prompt_len\": 10, \"output_len\": 2, \"ttft\": 0.1}\n");
        assertEquals(List.of(), Yaml.workload("trace: {format: vllm, path: v.jsonl}", dir, 0).warnings());
    }
}
