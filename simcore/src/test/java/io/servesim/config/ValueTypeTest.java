package io.servesim.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.servesim.engine.EngineSettings;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** One parser per kind of value: every key of a kind takes the same forms and refuses with its range and reason. */
class ValueTypeTest {
    private static ConfigNode engine(String yaml) {
        return ConfigNode.root(io.servesim.workload.Yaml.tree(yaml)).child("engine");
    }

    private static List<String> problems(ConfigNode n) {
        try {
            n.throwIfProblems();
            return List.of();
        } catch (ConfigException e) {
            return e.problems().stream().map(p -> p.path() + ": " + p.message()).toList();
        }
    }

    /** The problems of reading {@code setting} from the engine section of {@code yaml}. */
    private static List<String> problems(String yaml, Setting<?> setting) {
        ConfigNode n = engine(yaml);
        n.get(setting);
        return problems(n);
    }

    @Test
    void aDurationTakesAnyUnitAndAKeyInMicrosecondsAlsoABareNumber() {
        // 0.5ms = 500 us; 2 = 2 us under a key that names its unit; the unit-less alias takes units too
        assertEquals(500L, engine("engine: {kv_transfer_base_latency_us: 0.5ms}").get(EngineSettings.KV_TRANSFER_BASE_LATENCY));
        assertEquals(2L, engine("engine: {kv_transfer_base_latency_us: 2}").get(EngineSettings.KV_TRANSFER_BASE_LATENCY));
        assertEquals(30_000_000L, engine("engine: {kv_transfer_base_latency: 30s}").get(EngineSettings.KV_TRANSFER_BASE_LATENCY));
        assertEquals(List.of("engine.kv_transfer_base_latency_us: must be in [0us, 1m], got 2m (a fixed cost per transfer"
                + " beyond a minute is no link)"), problems("engine: {kv_transfer_base_latency_us: 2m}",
                EngineSettings.KV_TRANSFER_BASE_LATENCY));
        // a bare number is refused in the same words as a duration, its range rendered with units
        assertEquals(List.of("engine.kv_transfer_base_latency_us: must be in [0us, 1m], got -5us (a fixed cost per transfer"
                + " beyond a minute is no link)"), problems("engine: {kv_transfer_base_latency_us: -5}",
                EngineSettings.KV_TRANSFER_BASE_LATENCY));
        assertEquals(List.of("engine.kv_transfer_base_latency_us: must be a whole number of microseconds or a duration with"
                + " a unit (e.g. 1.5ms), got 2.5"), problems("engine: {kv_transfer_base_latency_us: 2.5}",
                EngineSettings.KV_TRANSFER_BASE_LATENCY));
    }

    @Test
    void aBandwidthTakesAUnitOrGbPerSecondAndAnImplausibleOneIsRefusedWithTheReason() {
        // 400 Gb/s = 50 GB/s; 64 = 64 GB/s
        assertEquals(50.0, engine("engine: {kv_transfer_bandwidth: 400Gb/s}").get(EngineSettings.KV_TRANSFER_BANDWIDTH));
        assertEquals(64.0, engine("engine: {kv_transfer_bandwidth: 64}").get(EngineSettings.KV_TRANSFER_BANDWIDTH));
        assertNull(engine("engine: {}").get(EngineSettings.KV_TRANSFER_BANDWIDTH), "derived from the GPU when absent");
        // 10^-7 GB/s ran for ever (10^9 events): a 2 MiB block would take 5.8 hours
        assertEquals("engine.kv_transfer_bandwidth: must be in [0.01, 10000] GB/s, got 0.0000001 (a GPU-CPU link below"
                + " 10 MB/s moves a 2 MiB KV block in over 0.2 s, slower than recomputing it; above 10 TB/s is beyond any PCIe,"
                + " NVLink-C2C or HBM)", problems("engine: {kv_transfer_bandwidth: 0.0000001}",
                EngineSettings.KV_TRANSFER_BANDWIDTH).get(0));
    }

    @Test
    void aBandwidthWrittenAsTextWithoutAUnitIsGbPerSecondAsAFlagPassesIt() {
        assertEquals(64.0, engine("engine: {kv_transfer_bandwidth: '64'}").get(EngineSettings.KV_TRANSFER_BANDWIDTH));
        assertTrue(problems("engine: {kv_transfer_bandwidth: 0GB/s}", EngineSettings.KV_TRANSFER_BANDWIDTH).get(0)
                .startsWith("engine.kv_transfer_bandwidth: must be in [0.01, 10000] GB/s, got 0 ("),
                "the range refuses it, with its reason");
    }

    @Test
    void aKeyInMicrosecondsRefusesAFractionOfOneSayingSo() {
        assertEquals(List.of("engine.kv_transfer_base_latency_us: must be a whole number of microseconds or a duration with"
                + " a unit (e.g. 1.5ms), got 2.5"), problems("engine: {kv_transfer_base_latency_us: 2.5}",
                EngineSettings.KV_TRANSFER_BASE_LATENCY));
    }

    @Test
    void aMappingParsesEachValueAtItsOwnPathAndRendersSorted() {
        ValueType<Map<String, Long>> limits = ValueType.mapping(ValueType.integer(0, 10).in("requests", "why"));
        Setting<Map<String, Long>> s = Setting.of("p.limits", limits, Map.of(), "doc");
        assertEquals(Map.of("a", 2L, "b", 3L), s.parse(io.servesim.workload.Yaml.tree("{b: 3, a: 2}"), "p.limits"));
        assertEquals("{a: 2, b: 3}", limits.render(Map.of("b", 3L, "a", 2L)));
        ConfigException e = assertThrows(ConfigException.class,
                () -> s.parse(io.servesim.workload.Yaml.tree("{a: 11}"), "p.limits"));
        assertEquals("p.limits.a: must be in [0, 10] requests, got 11 (why)", e.getMessage());
    }

    @Test
    void aChoiceNamesWhatItChoosesAndAnInfiniteNumberIsRefusedByItsRange() {
        Setting<String> router = Setting.of("r.name", ValueType.choice(List.of("a", "b"), "routing policy"), "a", "doc");
        ConfigException e = assertThrows(ConfigException.class,
                () -> router.parse(com.fasterxml.jackson.databind.node.TextNode.valueOf("c"), "r.name"));
        assertEquals("r.name: unknown routing policy 'c'; valid: a, b", e.getMessage());
        Setting<Double> w = Setting.of("w", ValueType.real(0, 1), 0.0, "doc");
        e = assertThrows(ConfigException.class,
                () -> w.parse(com.fasterxml.jackson.databind.node.DoubleNode.valueOf(Double.POSITIVE_INFINITY), "w"));
        assertEquals("w: must be in [0, 1], got Infinity", e.getMessage());
    }

    @Test
    void anAliasIsReadAndBothNamesSetAreRefused() {
        assertEquals(64L, engine("engine: {max_num_running_reqs: 64}").get(EngineSettings.MAX_NUM_SEQS));
        ConfigNode both = engine("engine: {max_num_seqs: 64, max_num_running_reqs: 32}");
        both.get(EngineSettings.MAX_NUM_SEQS);
        assertEquals(1, problems(both).size());
    }
}
