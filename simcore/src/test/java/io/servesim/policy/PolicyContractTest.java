package io.servesim.policy;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.servesim.cluster.AutoscalingConfig;
import io.servesim.cluster.ClusterConfig;
import io.servesim.cluster.DrainPolicy;
import io.servesim.cluster.Observability;
import io.servesim.config.ConfigException;
import io.servesim.engine.EngineConfig;
import io.servesim.engine.Request;
import io.servesim.engine.RequestTags;
import io.servesim.engine.TokenSequence;
import io.servesim.run.LinearLatency;
import io.servesim.run.PolicyBundle;
import io.servesim.run.PolicyKind;
import io.servesim.run.Runs;
import io.servesim.run.SimSetup;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * One contract over every registered policy of every kind ({@link PolicyKind#ALL} x its registry's
 * names, so a new policy or kind cannot skip it): it builds from {@link PolicySamples}, refuses
 * unknown params naming them, and runs a loaded 3-instance cluster deterministically while
 * conserving requests. The kinds not under test are priority-aware companions (least-loaded routing,
 * priority-fcfs, slo-based), so a priority or scheduler policy changes the order served; an autoscale
 * policy runs with autoscaling on (1..4 replicas, a check every 200 ms).
 */
class PolicyContractTest {
    private static final PolicyBundle COMPANIONS = PolicyBundle.DEFAULT.with(PolicyKind.ROUTING, "least-loaded")
            .with(PolicyKind.SCHEDULER, "priority-fcfs").with(PolicyKind.PRIORITY, "slo-based");

    static List<Arguments> everyPolicy() {
        List<Arguments> out = new ArrayList<>();
        for (PolicyKind<?> kind : PolicyKind.ALL) {
            for (String name : kind.registry().names()) {
                out.add(Arguments.of(Named.of(kind.name(), kind), name));
            }
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

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("everyPolicy")
    void buildsFromItsSampleAndRefusesUnknownParams(PolicyKind<?> kind, String name) {
        PolicySpec sample = PolicySamples.of(kind, name);
        assertDoesNotThrow(() -> kind.registry().create(sample),
                name + " needs params: add them to PolicySamples");
        Map<String, Object> params = new java.util.HashMap<>(sample.params());
        params.put("no_such_param", 1.0);
        ConfigException e = assertThrows(ConfigException.class,
                () -> kind.registry().create(new PolicySpec(name, params, sample.path())));
        assertEquals(kind.configPath() + ".params.no_such_param", e.problems().get(0).path());
    }

    /** Every declared parameter written out at its documented default builds the policy (the catalog says true). */
    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("everyPolicy")
    void takesEveryDeclaredParameterAtItsDefault(PolicyKind<?> kind, String name) {
        PolicySpec sample = PolicySamples.of(kind, name);
        Map<String, Object> params = new java.util.HashMap<>(sample.params());
        String at = "policies." + kind.name() + "[" + name + "].params.";
        for (io.servesim.config.Setting<?> s : kind.registry().settings()) {
            if (s.path().startsWith(at) && s.defaultValue() != null) {
                params.put(s.key(), java(io.servesim.workload.Yaml.tree(s.defaultText())));
            }
        }
        assertDoesNotThrow(() -> kind.registry().create(new PolicySpec(name, params, sample.path()),
                PolicyContext.DEFAULT.withCpuKvTier(true)), params.toString());
    }

    /** A YAML value as the policy binder hands it to a policy. */
    private static Object java(com.fasterxml.jackson.databind.JsonNode v) {
        if (v.isObject()) {
            Map<String, Object> m = new java.util.HashMap<>();
            v.fields().forEachRemaining(e -> m.put(e.getKey(), java(e.getValue())));
            return m;
        }
        return v.isNumber() ? (Object) v.asDouble() : v.isBoolean() ? (Object) v.asBoolean() : v.asText();
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("everyPolicy")
    void runsDeterministicallyAndConserves(PolicyKind<?> kind, String name) {
        SimSetup setup = SimSetup.single(new EngineConfig(16, 1024, 0, 0, 16, 600, true), LinearLatency.steps(2000, 20, 300))
                .withCluster(new ClusterConfig(3, 0, 0, Observability.ALL_IMMEDIATE))
                .withPolicies(COMPANIONS.with(kind, PolicySamples.of(kind, name)));
        int slots = 3;
        if (kind == PolicyKind.AUTOSCALE) {
            // replicas come and go every 200 ms check (100 ms provisioning, load and warm-up each), 1..4 of them
            setup = setup.withAutoscaling(new AutoscalingConfig(true, 1, 4, 200_000, 100_000, 100_000, Double.NaN, 100_000,
                    DrainPolicy.WAIT, 1_000_000, 2_000_000, Double.NaN));
            slots = 8;
        }
        Runs.Result a = Runs.run(setup, Runs.listOf(workload()));
        Runs.Result b = Runs.run(setup, Runs.listOf(workload()));
        assertEquals(a.records(), b.records());
        var s = a.summary();
        assertEquals(300, s.completed() + s.dropped() + s.rejected() + s.unfinished());
        long routed = 0;
        for (long c : s.cluster().requestsPerInstance()) {
            routed += c;
        }
        assertEquals(300 - s.rejected(), routed);
        int maxId = slots;
        assertTrue(a.records().stream().filter(r -> r.instanceId() != -1)
                .allMatch(r -> r.instanceId() >= 0 && r.instanceId() < maxId));
    }
}
