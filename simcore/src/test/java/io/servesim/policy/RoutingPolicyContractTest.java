package io.servesim.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.servesim.cluster.ClusterConfig;
import io.servesim.cluster.Observability;
import io.servesim.engine.EngineConfig;
import io.servesim.engine.Request;
import io.servesim.engine.RequestTags;
import io.servesim.engine.TokenSequence;
import io.servesim.policy.routing.Routers;
import io.servesim.run.LinearLatency;
import io.servesim.run.PolicyBundle;
import io.servesim.run.Runs;
import io.servesim.run.SimSetup;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Every routing, scheduling and priority template runs a loaded 3-instance cluster deterministically and conserves requests. */
class RoutingPolicyContractTest {
    static List<String[]> combos() {
        List<String[]> out = new ArrayList<>();
        for (String r : Routers.REGISTRY.names()) {
            out.add(new String[] {r, "fcfs", "constant"});
        }
        for (String s : Schedulers.REGISTRY.names()) {
            out.add(new String[] {"least-loaded", s, "slo-based"});
        }
        for (String p : Priorities.REGISTRY.names()) {
            out.add(new String[] {"round-robin", "priority-fcfs", p});
        }
        return out;
    }

    private static List<Request> workload() {
        List<Request> out = new ArrayList<>();
        String[] classes = {"realtime", "interactive", "batch"};
        for (int i = 0; i < 300; i++) {
            out.add(new Request(i, new RequestTags("c", "t" + (i % 2), classes[i % 3], -1, 0),
                    TokenSequence.prefixed(i % 4, 256, 10_000 + i, 50 + (i * 37) % 900), 20 + (i * 13) % 100, 0,
                    i * 8_000L, i % 5, true));
        }
        return out;
    }

    @ParameterizedTest
    @MethodSource("combos")
    void runsDeterministicallyAndConserves(String routing, String scheduler, String priority) {
        SimSetup setup = SimSetup.single(new EngineConfig(16, 1024, 0, 0, 16, 600, true), LinearLatency.steps(2000, 20, 300))
                .withCluster(new ClusterConfig(3, 0, 0, Observability.ALL_IMMEDIATE))
                .withPolicies(PolicyBundle.DEFAULT.withRouting(routing).withScheduler(scheduler).withPriority(priority));
        Runs.Result a = Runs.run(setup, Runs.listOf(workload()));
        Runs.Result b = Runs.run(setup, Runs.listOf(workload()));
        assertEquals(a.records(), b.records());
        var s = a.summary();
        assertEquals(300, s.completed() + s.dropped() + s.rejected() + s.unfinished());
        long routed = 0;
        for (long c : s.cluster().requestsPerInstance()) {
            routed += c;
        }
        assertEquals(300, routed);
        assertTrue(a.records().stream().allMatch(r -> r.instanceId() >= 0 && r.instanceId() < 3));
    }
}
