package io.servesim.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.servesim.config.ConfigException;
import io.servesim.config.StrictJson;
import io.servesim.engine.EngineConfig;
import io.servesim.engine.FrontEnd;
import io.servesim.engine.Request;
import io.servesim.engine.RequestTags;
import io.servesim.engine.TokenSequence;
import io.servesim.metrics.RequestRecord;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The serving front end ({@link FrontEnd}) and a replica's warm-up, on steps of exactly 1,000 us (b0 only) and
 * 100-token prompts.
 */
class FrontEndTest {
    private static final LinearLatency ONE_MS = LinearLatency.steps(1000, 0, 0);

    private static Request req(long id, int output, long arrivalUs) {
        return new Request(id, RequestTags.DEFAULT, TokenSequence.unique(9000 + id, 100), output, 0, arrivalUs, 0, true);
    }

    private static RequestRecord runOne(EngineConfig engine, FrontEnd frontEnd) {
        SimSetup setup = SimSetup.single(engine, ONE_MS).withFrontEnd(frontEnd);
        return Runs.run(setup, Runs.listOf(List.of(req(0, 10, 0)))).byId(0);
    }

    @Test
    void ingressDelaysTheEngineAndEgressEveryTokenButNotTheGaps() {
        // ingress 2,000 + 2 x 100 tokens = 2,200 us: queued at 2,200, step [2,200, 3,200), first token out at
        // 3,200 + 30 = 3,230 (TTFT); 10 tokens, the last sampled at 12,200, out at 12,230 (E2E); ITL (12,230 - 3,230) / 9
        RequestRecord r = runOne(Runs.engine(1000), new FrontEnd(true, 2000, 2.0, 30, 0));
        assertEquals(2_200, r.enqueueUs());
        assertEquals(3_230, r.ttftUs());
        assertEquals(12_230, r.e2eUs());
        assertEquals(1_000.0, r.meanItlUs());
        assertEquals(r.ttftUs(), r.clientTtftUs(), "no network: the client sees the server's times");
    }

    @Test
    void theRoundTripOfARequestWithoutANetworkSplitsIntoTwoLegs() {
        // 501 us: 250 before the server (sent at -250), 251 after it; TTFT 3,230 server side, 3,230 + 501 client side
        RequestRecord r = runOne(Runs.engine(1000), new FrontEnd(true, 2000, 2.0, 30, 501));
        assertEquals(3_230, r.ttftUs());
        assertEquals(-250, r.sendUs());
        assertEquals(3_731, r.clientTtftUs());
        assertEquals(12_731, r.clientE2eUs());
    }

    @Test
    void aWarmupSlowsAReplicasFirstStepsOrFirstSeconds() {
        // 10 tokens; 2 steps at 2x: tokens at 2,000, 4,000, then 5,000, ..., 12,000
        RequestRecord bySteps = runOne(Runs.engine(1000).withWarmup(new EngineConfig.Warmup(2, 0, 2.0)), FrontEnd.OFF);
        assertEquals(2_000, bySteps.ttftUs());
        assertEquals(12_000, bySteps.e2eUs());
        // steps starting within 1,500 us of the first: only the first (starts at 0; the next at 2,000): 2,000, 3,000, ...,
        // 11,000
        RequestRecord byTime = runOne(Runs.engine(1000).withWarmup(new EngineConfig.Warmup(0, 1_500, 2.0)), FrontEnd.OFF);
        assertEquals(2_000, byTime.ttftUs());
        assertEquals(11_000, byTime.e2eUs());
    }

    private static final String WORKLOAD = """
            workload: {aggregate_rate: 1, num_requests: 5,
                       input_distribution: {type: constant, params: {value: 100}},
                       output_distribution: {type: constant, params: {value: 10}}}
            """;

    private static RunPlan prepare(String yaml) throws Exception {
        return RunPlan.prepare(SimConfigLoader.bind(StrictJson.yaml().readTree(yaml + "\n" + WORKLOAD), Path.of(".")));
    }

    @Test
    void onByDefaultExceptWithBlackboxWhoseAlphasPriceTheApiServer() throws Exception {
        assertTrue(prepare("deployment: {model: qwen/qwen2.5-7b-instruct, hardware: H100, latency_model: roofline}")
                .setup().frontEnd().enabled());
        assertEquals(FrontEnd.OFF, prepare("deployment: {model: qwen/qwen2.5-7b-instruct, hardware: H100,"
                + " latency_model: blackbox}").setup().frontEnd());
        assertTrue(prepare("deployment: {model: qwen/qwen2.5-7b-instruct, hardware: H100, latency_model: blackbox}\n"
                + "frontend: {enabled: true, request_us: 100}").setup().frontEnd().enabled());
        ConfigException e = assertThrows(ConfigException.class, () -> prepare("deployment: {model: qwen/qwen2.5-7b-instruct,"
                + " hardware: H100, latency_model: blackbox}\nfrontend: {request_us: 100}"));
        assertTrue(e.getMessage().contains("frontend.request_us: does nothing: the front end is off with the blackbox"
                + " latency model"), e.getMessage());
    }
}
