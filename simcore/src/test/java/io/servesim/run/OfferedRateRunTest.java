package io.servesim.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.servesim.config.StrictJson;
import io.servesim.metrics.RequestRecord;
import io.servesim.metrics.RunSummary;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The offered rate of a run and the throughput fitness scored against it, on a run that serves late, not less: one H100
 * replica of Llama-3.1-8B (roofline) held to 4 sequences at a time, offered 50 req/s of 256-token outputs. Each sequence
 * takes a few seconds, so 4 slots serve a few requests per second while 200 requests arrive over about 4 s; there is no
 * horizon, so every request still completes, only late.
 */
class OfferedRateRunTest {
    private static final String CONFIG = """
            seed: 1
            deployment: {model: meta-llama/llama-3.1-8b-instruct, hardware: H100, latency_model: roofline}
            engine: {max_num_seqs: 4}
            fitness_weights: "throughput_rps:1"
            workload:
              aggregate_rate: 50
              num_requests: %d
              input_distribution: {type: constant, params: {value: 512}}
              output_distribution: {type: constant, params: {value: 256}}
            """;

    private static RunSummary run(int requests, List<RequestRecord> records) throws Exception {
        var cfg = SimConfigLoader.bind(StrictJson.yaml().readTree(CONFIG.formatted(requests)), Path.of("."));
        return RunPlan.prepare(cfg).run(records::add);
    }

    /**
     * offered_rps is the injected requests over the arrival window, first to last arrival, taken here from the
     * records; the fitness is throughput_rps / offered_rps. Every request completes, so the share completed
     * (200 / 200 = 1, the former rule) says nothing, while the rate served is under a fifth of the rate offered.
     */
    @Test
    void anOverloadedRunThatCompletesEverythingScoresItsServedRateOverTheOfferedRate() throws Exception {
        List<RequestRecord> records = new ArrayList<>();
        RunSummary s = run(200, records);
        assertEquals(200, s.count("injected"));
        assertEquals(200, s.count("completed"), "no horizon: every request completes, late");
        long first = records.stream().mapToLong(RequestRecord::arrivalUs).min().orElseThrow();
        long last = records.stream().mapToLong(RequestRecord::arrivalUs).max().orElseThrow();
        double offered = 200 / ((last - first) / 1e6);
        assertEquals(offered, s.number("offered_rps"), 1e-9 * offered);
        double score = s.number("throughput_rps") / offered;
        assertEquals(score, s.number("fitness"), 1e-12);
        assertTrue(score < 0.2, "served " + s.number("throughput_rps") + " of " + offered + " req/s offered");
    }

    /** One request has no arrival window: offered_rps is undefined and the fitness is the share served, 1 / 1. */
    @Test
    void oneRequestHasNoOfferedRateAndScoresTheShareServed() throws Exception {
        RunSummary s = run(1, new ArrayList<>());
        assertTrue(Double.isNaN(s.number("offered_rps")));
        assertEquals(1.0, s.number("fitness"), 0.0);
    }
}
