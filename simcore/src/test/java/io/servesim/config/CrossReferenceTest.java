package io.servesim.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.servesim.run.SimConfig;
import io.servesim.run.SimConfigLoader;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** SLO classes, tenants and classes named in one section must exist in another. */
class CrossReferenceTest {
    private static final String DEPLOYMENT = "deployment: {coefficients: {alpha: [0, 0, 0], beta: [1, 1, 1]}}\n";
    private static final String CLIENTS = """
            workload:
              aggregate_rate: 1
              num_requests: 10
              clients:
                - {id: a, tenant_id: team-a, slo_class: interactive, rate_fraction: 0.5,
                   input_distribution: {type: constant, params: {value: 10}},
                   output_distribution: {type: constant, params: {value: 10}}}
                - {id: b, tenant_id: team-b, slo_class: %s, rate_fraction: 0.5,
                   input_distribution: {type: constant, params: {value: 10}},
                   output_distribution: {type: constant, params: {value: 10}}}
            """;

    private static SimConfig bind(String yaml) {
        try {
            return SimConfigLoader.bind(StrictJson.yaml().readTree(DEPLOYMENT + yaml), Path.of("."));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static List<String> problems(String yaml) {
        ConfigException e = assertThrows(ConfigException.class, () -> bind(yaml));
        return e.problems().stream().map(ConfigException.Problem::toString).toList();
    }

    @Test
    void aClientsSloClassMustHaveTargets() {
        assertEquals(List.of("workload.clients[1].slo_class: no SLO targets for class 'interactve'; classes with targets: "
                        + "batch, interactive, realtime, standard (define it under slo:)"),
                problems(CLIENTS.formatted("interactve")));
        bind(CLIENTS.formatted("gold") + "slo: {gold: {e2e_ms: 1000}}");
    }

    @Test
    void anSloClassWithoutAnyTargetIsAnError() {
        assertEquals(List.of("slo.gold: defines no target; give at least one of ttft_ms, tpot_ms, e2e_ms"),
                problems(CLIENTS.formatted("batch") + "slo: {gold: {}}"));
    }

    @Test
    void policyMapsMustNameTenantsAndClassesOfTheWorkload() {
        assertEquals(List.of("policies.admission.params.tenant_limits.team-c: no client has tenant 'team-c'; tenants: team-a, team-b"),
                problems(CLIENTS.formatted("batch")
                        + "policies: {admission: {name: tenant-quota, params: {max_in_flight: 4, tenant_limits: {team-a: 2, team-c: 1}}}}"));
        assertEquals(List.of("policies.priority.params.class_scores.gold: no client has SLO class 'gold'; classes: batch, interactive"),
                problems(CLIENTS.formatted("batch") + "policies: {priority: {name: slo-based, params: {class_scores: {gold: 3}}}}"));
        assertEquals(List.of("policies.priority.params.class_scores.gold: no client has SLO class 'gold'; classes: batch, interactive"),
                problems(CLIENTS.formatted("batch") + "policies: {priority: {name: inverted-slo, params: {class_scores: {gold: 3}}}}"));
        assertEquals(List.of("policies.priority.params.tenant_scores.team-z: no client has tenant 'team-z'; tenants: team-a, team-b"),
                problems(CLIENTS.formatted("batch") + "policies: {priority: {name: tenant-priority, params: {tenant_scores: {team-z: 3}}}}"));
        bind(CLIENTS.formatted("batch") + "policies: {priority: {name: slo-based, params: {class_scores: {batch: 3, interactive: 1}}}}");
    }

    @Test
    void tenantQuotaLimitsAreWholeNumbers() {
        assertEquals(List.of("policies.admission.params.max_in_flight: must be an integer, got 2.5"),
                problems(CLIENTS.formatted("batch") + "policies: {admission: {name: tenant-quota, params: {max_in_flight: 2.5}}}"));
        assertEquals(List.of("policies.admission.params.tenant_limits.team-a: must be in [0, 1000000] requests, got -1 (a tenant's"
                + " concurrency beyond 10^6 requests exceeds what any fleet holds in flight)"),
                problems(CLIENTS.formatted("batch")
                        + "policies: {admission: {name: tenant-quota, params: {max_in_flight: 2, tenant_limits: {team-a: -1}}}}"));
    }
}
