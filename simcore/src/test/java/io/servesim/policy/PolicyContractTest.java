package io.servesim.policy;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.servesim.config.ConfigException;
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
 * unknown params naming them, reports every bad param at once, and runs a loaded 3-instance cluster deterministically while
 * conserving requests ({@link ContractRuns}: the kinds not under test are priority-aware companions, so a
 * priority or scheduler policy changes the order served; an autoscale policy runs with autoscaling on).
 */
class PolicyContractTest {
    static List<Arguments> everyPolicy() {
        List<Arguments> out = new ArrayList<>();
        for (PolicyKind<?> kind : PolicyKind.ALL) {
            for (String name : kind.registry().names()) {
                out.add(Arguments.of(Named.of(kind.name(), kind), name));
            }
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

    /**
     * Every param written wrong is reported at once, each at its own path: {@code {x: []}} is a value no setting takes
     * (not a number, string, boolean, duration or list; a mapping's entry {@code x} is none of the values a mapping
     * holds), so each declared param has one problem, at {@code params.<key>} or, for a mapping, under it, and the
     * unknown key one more: declared + 1 problems, where stopping at the first bad value gave one.
     */
    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("everyPolicy")
    void reportsEveryBadParamAtOnce(PolicyKind<?> kind, String name) {
        PolicySpec sample = PolicySamples.of(kind, name);
        Map<String, Object> params = new java.util.HashMap<>(sample.params());
        List<String> declared = declared(kind, name).stream().map(io.servesim.config.Setting::key).toList();
        declared.forEach(k -> params.put(k, Map.of("x", List.of())));
        params.put("no_such_param", 1.0);
        ConfigException e = assertThrows(ConfigException.class,
                () -> kind.registry().create(new PolicySpec(name, params, sample.path())));
        List<String> paths = e.problems().stream().map(ConfigException.Problem::path).toList();
        String prefix = kind.configPath() + ".params.";
        for (String k : declared) {
            assertTrue(paths.stream().anyMatch(p -> p.equals(prefix + k) || p.startsWith(prefix + k + ".")),
                    k + " not reported: " + paths);
        }
        assertTrue(paths.contains(prefix + "no_such_param"), paths.toString());
        assertEquals(declared.size() + 1, paths.size(), paths.toString());
    }

    /** Every declared parameter written out at its documented default builds the policy (the catalog says true). */
    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("everyPolicy")
    void takesEveryDeclaredParameterAtItsDefault(PolicyKind<?> kind, String name) {
        PolicySpec sample = PolicySamples.of(kind, name);
        Map<String, Object> params = new java.util.HashMap<>(sample.params());
        for (io.servesim.config.Setting<?> s : declared(kind, name)) {
            if (s.defaultValue() != null) {
                params.put(s.key(), java(io.servesim.workload.Yaml.tree(s.defaultText())));
            }
        }
        assertDoesNotThrow(() -> kind.registry().create(new PolicySpec(name, params, sample.path()),
                PolicyContext.DEFAULT.withCpuKvTier(true)), params.toString());
    }

    /** The parameters policy {@code name} of {@code kind} declares ({@code policies.<kind>[<name>].params.*}). */
    private static List<io.servesim.config.Setting<?>> declared(PolicyKind<?> kind, String name) {
        String at = "policies." + kind.name() + "[" + name + "].params.";
        return kind.registry().settings().stream().filter(s -> s.path().startsWith(at)).toList();
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
        SimSetup setup = ContractRuns.setup(kind, PolicySamples.of(kind, name));
        int slots = kind == PolicyKind.AUTOSCALE ? 8 : 3; // an autoscaled fleet's engine slots: twice its max
        Runs.Result a = Runs.run(setup, Runs.listOf(ContractRuns.workload()));
        Runs.Result b = Runs.run(setup, Runs.listOf(ContractRuns.workload()));
        assertEquals(a.records(), b.records());
        var s = a.summary();
        assertEquals(300, s.count("completed") + s.count("dropped") + s.count("rejected") + s.count("unfinished"));
        long routed = 0;
        for (long c : s.cluster().requestsPerInstance()) {
            routed += c;
        }
        assertEquals(300 - s.count("rejected"), routed);
        int maxId = slots;
        assertTrue(a.records().stream().filter(r -> r.instanceId() != -1)
                .allMatch(r -> r.instanceId() >= 0 && r.instanceId() < maxId));
    }
}
