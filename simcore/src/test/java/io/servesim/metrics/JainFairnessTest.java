package io.servesim.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Jain's index over tenants' SLO attainment, (sum x)^2 / (n sum x^2). */
class JainFairnessTest {
    private static Map<String, GroupSummary> tenants(double... attainment) {
        Map<String, GroupSummary> m = new LinkedHashMap<>();
        for (int i = 0; i < attainment.length; i++) {
            m.put("t" + i, new GroupSummary(10, 10, 0, 0, Math.round(10 * attainment[i]), attainment[i], null, null, null));
        }
        return m;
    }

    @Test
    void equalTenantsScoreOneAndOneServedAloneScoresOneOverN() {
        assertEquals(1.0, ClusterBreakdown.jain(tenants(0.5, 0.5, 0.5)), 1e-12);
        // (1 + 0 + 0)^2 / (3 x 1) = 1/3
        assertEquals(1.0 / 3, ClusterBreakdown.jain(tenants(1, 0, 0)), 1e-12);
        // (0.9 + 0.3)^2 / (2 x (0.81 + 0.09)) = 1.44 / 1.8 = 0.8
        assertEquals(0.8, ClusterBreakdown.jain(tenants(0.9, 0.3)), 1e-12);
    }

    @Test
    void noTenantServedIsUndefinedNotPerfectlyFair() {
        // 0 / 0: a run that rejected every request must not score as the fairest (a fitness counts NaN as 0)
        assertTrue(Double.isNaN(ClusterBreakdown.jain(tenants(0, 0))));
        assertTrue(Double.isNaN(ClusterBreakdown.jain(tenants())));
        // so the column may be null: cells/ (and every avg() over it) held NaN where the catalog says null
        assertEquals(Metric.Kind.OPTIONAL_DOUBLE, MetricCatalog.COLUMNS.stream().filter(c -> c.name().equals("jain_fairness"))
                .findFirst().orElseThrow().kind());
    }
}
