package io.servesim.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.servesim.config.StrictJson;
import io.servesim.decisions.DecisionKind;
import io.servesim.decisions.DecisionRecord;
import io.servesim.decisions.RealizedRegret;
import io.servesim.decisions.TraceLevel;
import io.servesim.decisions.TraceOptions;
import io.servesim.metrics.RequestRecord;
import io.servesim.metrics.SessionSink;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Realized regret ({@code --counterfactual-sample}) of P/D runs: a sampled routing decision of either pool is
 * replayed with its alternative forced ({@link ForcedRoute} wraps both pools' routers; a decision forces only the
 * router of the pool its instance belongs to), so the request's prefill or decode runs on the alternative.
 */
class PdRealizedRegretTest {
    /** Llama-3.1-8B on H100s, a prefill pool of engines 0, 1 (kv-router) and a decode pool of 2, 3 (least-loaded). */
    private static final String PD = """
            seed: 7
            deployment:
              model: meta-llama/llama-3.1-8b-instruct
              hardware: H100
              architecture: pd
              pd: {prefill: {replicas: 2}, decode: {replicas: 2}, decider: always}
            engine: {max_num_seqs: 64, max_num_batched_tokens: 2048, block_size: 16}
            policies: {routing: kv-router}
            workload:
              aggregate_rate: 10
              num_requests: 40
              input_distribution: {type: gaussian, params: {mean: 1500, std_dev: 800, min: 16, max: 6000}}
              output_distribution: {type: gaussian, params: {mean: 80, std_dev: 60, min: 1, max: 400}}
            """;

    @Test
    void aSampledDecisionOfEitherPoolIsReplayedWithItsAlternative() throws Exception {
        JsonNode tree = StrictJson.yaml().readTree(PD);
        RunPlan plan = RunPlan.prepare(SimConfigLoader.bind(tree, Path.of("")));
        List<DecisionRecord> decisions = new ArrayList<>();
        plan.run(r -> { }, SessionSink.NONE, decisions::add, new TraceOptions(TraceLevel.DECISIONS, 2));
        // request 10's prefill routing (over engines 0, 1) and its decode routing (over 2, 3)
        List<DecisionRecord> tenth = decisions.stream().filter(d -> d.kind() == DecisionKind.ROUTING && d.requestId() == 10)
                .toList();
        assertEquals(List.of("kv-router", "least-loaded"), tenth.stream().map(DecisionRecord::policy).toList());
        List<RealizedRegret> regrets = plan.realizedRegret(tenth);
        assertEquals(2, regrets.size(), "one alternative per decision in a 2-instance pool");
        for (int k = 0; k < 2; k++) {
            DecisionRecord d = tenth.get(k);
            RealizedRegret r = regrets.get(k);
            int alternative = d.instance() < 2 ? 1 - d.instance() : 5 - d.instance();
            assertEquals(alternative, r.alternative(), r.toString());
            // the replay ran request 10 on the alternative, in the pool the decision was made over
            RequestRecord replayed = replay(plan, 10, alternative);
            assertEquals(alternative, k == 0 ? replayed.handoff().prefillInstance() : replayed.handoff().decodeInstance());
            assertNotEquals(d.instance(), k == 0 ? replayed.handoff().prefillInstance() : replayed.handoff().decodeInstance());
        }
        // a decode instance is picked after the first token: forcing it leaves the request's TTFT as it was
        assertEquals(0.0, regrets.get(1).requestTtftGainMs(), regrets.get(1).toString());
        assertTrue(Double.isFinite(regrets.get(0).requestTtftGainMs()), regrets.get(0).toString());
    }

    private static RequestRecord replay(RunPlan plan, long requestId, int instance) {
        List<RequestRecord> records = new ArrayList<>();
        SimConfig cfg = plan.config();
        new Simulation(plan.setup(), cfg.workload().open(cfg.seed(), cfg.horizonUs()), records::add, SessionSink.NONE,
                p -> new ForcedRoute(p, requestId, instance)).run();
        return records.stream().filter(r -> r.requestId() == requestId).findFirst().orElseThrow();
    }
}
