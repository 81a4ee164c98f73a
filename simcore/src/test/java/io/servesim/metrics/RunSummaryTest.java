package io.servesim.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The summary keyed by the metric catalog: what a producer may put, and what a reader may ask. */
class RunSummaryTest {
    /** The summary of {@link FitnessWeightsTest#summary()}: 200 injected, 150 completed, 10 rejected, 40 unfinished. */
    private final RunSummary s = FitnessWeightsTest.summary();

    @Test
    void readsStoredAndComputedMetricsByName() {
        assertEquals(150, s.count("completed"));
        assertEquals(500, s.distribution("ttft_ms").p99());
        // rejection_rate is computed: 10 rejected / 200 injected
        assertEquals(0.05, s.number("rejection_rate"), 1e-12);
        // slo_attainment comes from the cluster part
        assertEquals(0.6, s.number("slo_attainment"), 1e-12);
        assertEquals("calibrated", s.text("latency_calibration"));
        assertEquals(2, s.integer("instances"));
    }

    @Test
    void aReaderAskingForTheWrongKindOrAnUnknownNameIsRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> s.count("ttft_ms"));
        assertEquals("metric ttft_ms is a distribution, not count", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> s.number("latency_model"));
        assertThrows(IllegalArgumentException.class, () -> s.count("requests_done"));
    }

    @Test
    void aProducerPutsStoredMetricsOfTheirKindOnly() {
        RunSummary.Builder b = s.toBuilder();
        IllegalArgumentException kind = assertThrows(IllegalArgumentException.class, () -> b.put("completed", 150));
        assertEquals("metric completed is a count (Long), not Integer", kind.getMessage());
        IllegalArgumentException computed = assertThrows(IllegalArgumentException.class,
                () -> b.put("rejection_rate", 0.1));
        assertEquals("metric rejection_rate is computed from the summary, not put", computed.getMessage());
        assertThrows(IllegalArgumentException.class, () -> b.put("no_such_metric", 1L));
    }

    @Test
    void aSummaryLackingAStoredMetricIsNotBuilt() {
        RunSummary.Builder b = RunSummary.builder().kvTiers(s.kvTiers()).cluster(s.cluster())
                .autoscaling(s.autoscaling()).pd(s.pd());
        for (Metric m : MetricCatalog.ALL) {
            if (m.stored() && !m.name().equals("steps")) {
                b.put(m.name(), s.value(m.name()));
            }
        }
        IllegalStateException e = assertThrows(IllegalStateException.class, b::build);
        assertEquals("run summary without the metrics [steps]", e.getMessage());
        assertEquals(s, b.put("steps", 1000L).build());
    }

    @Test
    void aCopyWithOneValueReplacedDiffersInThatValueOnly() {
        RunSummary scored = s.toBuilder().put("fitness", 0.5).build();
        assertEquals(0.5, scored.number("fitness"));
        assertTrue(Double.isNaN(s.number("fitness")));
        assertNotEquals(s, scored);
        assertEquals(s, scored.toBuilder().put("fitness", Double.NaN).build());
    }
}
