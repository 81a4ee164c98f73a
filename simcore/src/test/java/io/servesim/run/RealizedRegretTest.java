package io.servesim.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.servesim.cluster.ClusterConfig;
import io.servesim.cluster.Observability;
import io.servesim.decisions.DecisionKind;
import io.servesim.decisions.DecisionRecord;
import io.servesim.decisions.DecisionSample;
import io.servesim.decisions.RealizedRegret;
import io.servesim.decisions.TraceLevel;
import io.servesim.decisions.TraceOptions;
import io.servesim.engine.EngineConfig;
import io.servesim.engine.Request;
import io.servesim.engine.RequestTags;
import io.servesim.engine.TokenSequence;
import io.servesim.workload.RequestSource;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

class RealizedRegretTest {
    // two instances, one sequence at a time each; always-busiest sends everything to instance 0
    private static final SimSetup SETUP = SimSetup.single(new EngineConfig(1, 1024, 0, 0, 16, 2000, true),
                    LinearLatency.steps(2000, 20, 300))
            .withCluster(new ClusterConfig(2, 0, 0, Observability.ALL_IMMEDIATE))
            .withPolicies(PolicyBundle.DEFAULT.with(PolicyKind.ROUTING, "always-busiest"));
    // ten requests 1 ms apart, 200 prompt tokens, 50 output tokens
    private static final Supplier<RequestSource> SOURCE = () -> {
        List<Request> rs = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            rs.add(new Request(i, RequestTags.DEFAULT, TokenSequence.unique(1000 + i, 200), 50, 0, i * 1_000L, 0, true));
        }
        return Runs.listOf(rs);
    };

    private static List<DecisionRecord> routings() {
        List<DecisionRecord> d = new ArrayList<>();
        new Simulation(SETUP, SOURCE.get(), r -> { }).traceDecisions(d::add, new TraceOptions(TraceLevel.DECISIONS, 2)).run();
        return d.stream().filter(x -> x.kind() == DecisionKind.ROUTING).toList();
    }

    @Test
    void sendingAQueuedRequestToTheIdleInstanceIsClearlyBetter() {
        DecisionRecord fifth = routings().get(5);
        // request 5 arrives with requests 0-4 on instance 0 (one running, four waiting) and none on 1:
        // always-busiest scores instance 0 at load 5, instance 1 at 0, and picks 0
        assertEquals(0, fifth.instance());
        assertEquals(5.0, fifth.value());
        assertEquals(-5.0, fifth.scoreRegret());
        List<RealizedRegret> r = new RealizedRegretProbe(SETUP, SOURCE).probe(List.of(fifth));
        assertEquals(1, r.size());
        RealizedRegret alt = r.get(0);
        assertEquals(1, alt.alternative());
        assertEquals(-5.0, alt.scoreDelta());
        // on instance 0 it waits for five whole requests; on idle instance 1 it starts at once
        assertTrue(alt.requestTtftGainMs() > 0, alt.toString());
        // and requests 6-9 behind it on instance 0 each wait one request less
        assertTrue(alt.clusterTtftGainMs() > alt.requestTtftGainMs(), alt.toString());
        assertTrue(alt.disagrees(), "the scores preferred instance 0, the outcome instance 1");
        assertEquals(r, new RealizedRegretProbe(SETUP, SOURCE).probe(List.of(fifth)), "re-simulation is deterministic");
    }

    @Test
    void theSampleIsSeededAndInDecisionOrder() {
        DecisionSample a = new DecisionSample(3, 42);
        DecisionSample b = new DecisionSample(3, 42);
        routings().forEach(a::accept);
        routings().forEach(b::accept);
        assertEquals(3, a.sampled().size());
        assertEquals(a.sampled().stream().map(DecisionRecord::requestId).toList(),
                b.sampled().stream().map(DecisionRecord::requestId).toList());
        List<Long> times = a.sampled().stream().map(DecisionRecord::timeUs).toList();
        assertEquals(times.stream().sorted().toList(), times);
    }
}
