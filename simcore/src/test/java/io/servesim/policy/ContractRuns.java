package io.servesim.policy;

import io.servesim.cluster.AutoscalingConfig;
import io.servesim.cluster.ClusterConfig;
import io.servesim.cluster.DrainPolicy;
import io.servesim.cluster.Observability;
import io.servesim.engine.EngineConfig;
import io.servesim.engine.Request;
import io.servesim.engine.RequestTags;
import io.servesim.engine.TokenSequence;
import io.servesim.run.LinearLatency;
import io.servesim.run.PolicyBundle;
import io.servesim.run.PolicyKind;
import io.servesim.run.SimSetup;
import java.util.ArrayList;
import java.util.List;

/**
 * The run every policy is tested in ({@link PolicyContractTest}, and the code policies' twins of the templates): a
 * loaded 3-instance cluster whose other kinds are priority-aware companions (least-loaded routing, priority-fcfs,
 * slo-based), so a priority or scheduler policy changes the order served; an autoscale policy runs with autoscaling
 * on, 1..4 replicas, a check every 200 ms.
 */
public final class ContractRuns {
    private static final PolicyBundle COMPANIONS = PolicyBundle.DEFAULT.with(PolicyKind.ROUTING, "least-loaded")
            .with(PolicyKind.SCHEDULER, "priority-fcfs").with(PolicyKind.PRIORITY, "slo-based");

    private ContractRuns() {
    }

    /** 300 requests every 8 ms: three SLO classes, two tenants, four shared 256-token prefixes, 50..950-token prompts. */
    public static List<Request> workload() {
        List<Request> out = new ArrayList<>();
        String[] classes = {"realtime", "interactive", "batch"};
        for (int i = 0; i < 300; i++) {
            out.add(new Request(i, new RequestTags("c", "t" + (i % 2), classes[i % 3], -1, 0),
                    TokenSequence.prefixed(i % 4, 256, 10_000 + i, 50 + (i * 37) % 900), 20 + (i * 13) % 100, 0,
                    i * 8_000L, i % 5, true));
        }
        return out;
    }

    /** The cluster with {@code spec} as its policy of {@code kind} and the companions for the others. */
    public static SimSetup setup(PolicyKind<?> kind, PolicySpec spec) {
        SimSetup setup = SimSetup.single(new EngineConfig(16, 1024, 0, 0, 16, 600, true), LinearLatency.steps(2000, 20, 300))
                .withCluster(new ClusterConfig(3, 0, 0, Observability.ALL_IMMEDIATE))
                .withPolicies(COMPANIONS.with(kind, spec));
        if (kind == PolicyKind.AUTOSCALE) {
            // replicas come and go every 200 ms check (100 ms provisioning, load and warm-up each), 1..4 of them
            setup = setup.withAutoscaling(new AutoscalingConfig(true, 1, 4, 200_000, 100_000, 100_000, Double.NaN, 100_000,
                    DrainPolicy.WAIT, 1_000_000, 2_000_000, Double.NaN));
        }
        return setup;
    }
}
