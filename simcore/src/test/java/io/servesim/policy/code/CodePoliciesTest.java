package io.servesim.policy.code;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.servesim.cluster.Signal;
import io.servesim.config.ConfigException;
import io.servesim.policy.ContractRuns;
import io.servesim.policy.PolicySpec;
import io.servesim.policy.api.Instances;
import io.servesim.run.PolicyKind;
import io.servesim.run.Runs;
import io.servesim.run.SimConfig;
import io.servesim.run.SimConfigLoader;
import io.servesim.usercode.UserCodeException;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Code policies in runs ({@link ContractRuns}: the policy contract's cluster and load): a code twin of each kind's
 * template (the same rule written against the policy API) gives the template's records exactly, so the adapters add
 * nothing and lose nothing; the signals a code router reads follow from its source; a call that breaks its contract
 * or overruns its budget fails the run naming the file; a relative source resolves against the config's directory.
 */
class CodePoliciesTest {
    @TempDir
    Path dir;

    private static final String HEADER = "import io.servesim.policy.api.*;\nimport java.util.*;\n";

    static List<Arguments> twins() {
        return List.of(
                Arguments.of(PolicyKind.ROUTING, PolicySpec.of("least-loaded", "policies.routing"), "LeastLoadedTwin", """
                        // least-loaded: fewest waiting + running + in transit; ties: lower KV utilization, lowest id
                        public final class LeastLoadedTwin implements RoutingPolicy {
                            public int route(RequestView r, Instances in, long now) {
                                int best = 0;
                                double bestLoad = Double.MAX_VALUE, bestKv = Double.MAX_VALUE;
                                for (int i = 0; i < in.count(); i++) {
                                    double load = in.load(i), kv = in.kvUtilization(i);
                                    if (load < bestLoad || (load == bestLoad && kv < bestKv)) {
                                        best = i; bestLoad = load; bestKv = kv;
                                    }
                                }
                                return best;
                            }
                        }
                        """),
                Arguments.of(PolicyKind.ADMISSION, new PolicySpec("tenant-quota", Map.of("max_in_flight", 2.0),
                        "policies.admission"), "QuotaTwin", """
                        // tenant-quota {max_in_flight: 2}: reject a tenant's request while 2 of its requests are in
                        public final class QuotaTwin implements AdmissionPolicy {
                            private final Map<String, Integer> inFlight = new HashMap<>();
                            public Admission decide(RequestView r, long now) {
                                int n = inFlight.getOrDefault(r.tenantId(), 0);
                                if (n >= 2) { return Admission.reject("tenant-quota: tenant at max_in_flight"); }
                                inFlight.put(r.tenantId(), n + 1);
                                return Admission.admit();
                            }
                            public void onLeft(RequestView r, long now) { inFlight.merge(r.tenantId(), -1, Integer::sum); }
                        }
                        """),
                Arguments.of(PolicyKind.PRIORITY, PolicySpec.of("slo-based", "policies.priority"), "SloTwin", """
                        // slo-based: class score + the workload's priority + 1 point per second of age
                        public final class SloTwin implements PriorityPolicy {
                            private final Map<String, Double> scores = Map.of("realtime", 10.0, "interactive", 5.0,
                                    "standard", 3.0, "batch", 1.0, "background", 0.0);
                            public double score(RequestView r, long now) {
                                return scores.getOrDefault(r.sloClass(), 0.0) + r.priority() + (now - r.arrivalUs()) / 1e6;
                            }
                        }
                        """),
                Arguments.of(PolicyKind.SCHEDULER, PolicySpec.of("sjf", "policies.scheduler"), "SjfTwin", """
                        // sjf: the shortest prompt first, then enqueue order
                        public final class SjfTwin implements SchedulingPolicy {
                            public int compare(RequestView a, RequestView b) { return Integer.compare(a.inputTokens(), b.inputTokens()); }
                        }
                        """),
                Arguments.of(PolicyKind.AUTOSCALE, new PolicySpec("threshold", Map.of("signal", "in_flight", "scale_up", 32.0,
                        "scale_down", 16.0, "cooldown", "400ms"), "policies.autoscale"), "ThresholdTwin", """
                        // threshold {signal: in_flight, scale_up: 32, scale_down: 16, cooldown: 400ms}: +1 above 32
                        // requests in flight per ready replica, -1 below 16, nothing within 400 ms of the last action
                        // (this load crosses both: the template scales up twice and down three times; scale_up 28 or 40 differs)
                        public final class ThresholdTwin implements AutoscalePolicy {
                            public int desiredReplicas(ScaleView s) {
                                if (s.sinceLastScaleUs() < 400_000L) { return s.currentReplicas(); }
                                if (s.avgInFlight() > 32) { return s.currentReplicas() + 1; }
                                if (s.avgInFlight() < 16) { return s.currentReplicas() - 1; }
                                return s.currentReplicas();
                            }
                        }
                        """));
    }

    private PolicySpec code(PolicyKind<?> kind, String className, String body) throws Exception {
        Path source = dir.resolve(className + ".java");
        Files.writeString(source, HEADER + body);
        return new PolicySpec(CodePolicies.NAME, Map.of("source", source.toString()), kind.configPath());
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("twins")
    void aCodeTwinOfATemplateGivesItsRecordsExactly(PolicyKind<?> kind, PolicySpec template, String className, String body)
            throws Exception {
        Runs.Result expected = Runs.run(ContractRuns.setup(kind, template), Runs.listOf(ContractRuns.workload()));
        Runs.Result actual = Runs.run(ContractRuns.setup(kind, code(kind, className, body)), Runs.listOf(ContractRuns.workload()));
        assertEquals(expected.records(), actual.records());
        assertEquals(300, actual.records().size());
    }

    @Test
    void aCodeRoutersSignalsAreTheOnesItsSourceReads() throws Exception {
        var router = PolicyKind.ROUTING.registry().create(new PolicySpec(CodePolicies.NAME,
                Map.of("source", "../sweeps/policies/code/PrefixAwareLeastLoad.java"), "policies.routing"));
        // it calls count, cachedPrefixBlocks (prefix_cache) and load (queue_depth + running)
        assertEquals(EnumSet.of(Signal.QUEUE_DEPTH, Signal.RUNNING, Signal.PREFIX_CACHE), router.signalsRead());
    }

    /** Every Instances method either reads its signals (InstancesAdapter.SIGNALS) or is one that reads none. */
    @Test
    void everyInstancesMethodSaysWhichSignalsItReads() {
        Set<String> noSignal = Set.of("count", "id", "inTransit", "totalKvBlocks", "blockSizeTokens");
        Set<String> methods = new TreeSet<>();
        for (Method m : Instances.class.getMethods()) {
            methods.add(m.getName());
        }
        Set<String> covered = new TreeSet<>(InstancesAdapter.SIGNALS.keySet());
        covered.addAll(noSignal);
        assertEquals(methods, covered);
    }

    private Runs.Result runRouting(String className, String body, String budget) throws Exception {
        PolicySpec spec = code(PolicyKind.ROUTING, className, body);
        Map<String, Object> params = new java.util.HashMap<>(spec.params());
        if (budget != null) {
            params.put("call_budget", budget);
        }
        return Runs.run(ContractRuns.setup(PolicyKind.ROUTING, new PolicySpec(spec.name(), params, spec.path())), Runs.listOf(ContractRuns.workload()));
    }

    @Test
    void aRouteOutsideThePositionsFailsTheRunNamingTheFile() {
        UserCodeException e = assertThrows(UserCodeException.class, () -> runRouting("Far", """
                public final class Far implements RoutingPolicy {
                    public int route(RequestView r, Instances in, long now) { return in.count(); }
                }
                """, null));
        assertEquals("policies.routing (Far.java): route returned 3, not a position in 0..2", e.getMessage());
    }

    @Test
    void aCallOverItsBudgetFailsTheRunNamingTheFileAndLine() {
        long t0 = System.nanoTime();
        UserCodeException e = assertThrows(UserCodeException.class, () -> runRouting("Spin", """
                public final class Spin implements RoutingPolicy {
                    public int route(RequestView r, Instances in, long now) { while (r.id() >= 0) { } return 0; }
                }
                """, "50ms"));
        // the header is two lines: route and its loop are line 4 (it stops at one of their checks)
        assertEquals("policies.routing (Spin.java): route ran longer than its call budget of 50 ms at Spin.java:4", e.getMessage());
        assertTrue(System.nanoTime() - t0 < 10_000_000_000L, "stopped within seconds");
    }

    @Test
    void aNonFinitePriorityFailsTheRun() throws Exception {
        PolicySpec spec = code(PolicyKind.PRIORITY, "NotANumber", """
                public final class NotANumber implements PriorityPolicy {
                    public double score(RequestView r, long now) { return 0.0 / 0.0; }
                }
                """);
        UserCodeException e = assertThrows(UserCodeException.class,
                () -> Runs.run(ContractRuns.setup(PolicyKind.PRIORITY, spec), Runs.listOf(ContractRuns.workload())));
        assertEquals("policies.priority (NotANumber.java): rankKey returned NaN, not a finite number", e.getMessage());
    }

    @Test
    void aRelativeSourceResolvesAgainstTheConfigsDirectory() throws Exception {
        Path sub = Files.createDirectories(dir.resolve("configs"));
        Files.copy(Path.of("../sweeps/policies/code/ShortestPromptFirst.java"), sub.resolve("Spf.java"));
        Files.writeString(sub.resolve("run.yaml"), """
                deployment: {model: meta-llama/llama-3.1-8b-instruct, hardware: H100}
                policies: {scheduler: {name: code, params: {source: Spf.java, call_budget: 2s}}}
                """);
        SimConfig c = SimConfigLoader.load(sub.resolve("run.yaml"), List.of());
        assertEquals(Map.of("source", sub.resolve("Spf.java").toString(), "call_budget", "2s"),
                c.policies().spec(PolicyKind.SCHEDULER).params());
        ConfigException missing = assertThrows(ConfigException.class, () -> SimConfigLoader.load(sub.resolve("run.yaml"),
                List.of("policies.scheduler.params.source=Nope.java")));
        assertEquals("cannot read " + sub.resolve("Nope.java") + ": no such file", missing.problems().get(0).message());
    }
}
