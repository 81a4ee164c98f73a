package io.servesim.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.servesim.cluster.AdmissionDecision;
import io.servesim.cluster.AdmissionPolicy;
import io.servesim.config.ConfigException;
import io.servesim.engine.Request;
import io.servesim.engine.RequestTags;
import io.servesim.engine.TokenSequence;
import io.servesim.policy.admission.Admissions;
import io.servesim.run.PolicyKind;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class AdmissionPolicyTest {
    private static Request req(long id, String tenant, long arrivalUs) {
        return new Request(id, new RequestTags("c", tenant, "standard", -1, 0), TokenSequence.unique(id, 100), 10, 0,
                arrivalUs, 0, true);
    }

    /** Every registered admission policy (with the params it requires). */
    static List<PolicySpec> templates() {
        return Admissions.REGISTRY.names().stream().map(n -> PolicySamples.of(PolicyKind.ADMISSION, n)).toList();
    }

    @ParameterizedTest
    @MethodSource("templates")
    void contractDecisionsAreWellFormedAndDeterministic(PolicySpec spec) {
        List<String> a = decisions(Admissions.REGISTRY.create(spec));
        List<String> b = decisions(Admissions.REGISTRY.create(spec));
        assertEquals(a, b, "same inputs -> same decisions");
    }

    private static List<String> decisions(AdmissionPolicy p) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            AdmissionDecision d = p.decide(req(i, "t" + (i % 3), i * 50_000L), i * 50_000L);
            assertNotNull(d.kind());
            if (d.kind() == AdmissionDecision.Kind.DELAY) {
                assertTrue(d.delayUs() > 0);
            }
            if (d.kind() == AdmissionDecision.Kind.REJECT) {
                assertNotNull(d.reason());
            }
            out.add(d.kind() + ":" + d.delayUs());
        }
        return out;
    }

    @Test
    void tokenBucketAdmitsExactlyTheRefilledCount() {
        // capacity 3, refill 2/s, one token per request, bucket starts full.
        // Arrivals every 100 ms for 2 s (t = 0, 0.1, ..., 1.9: 20 requests).
        // Tokens available by time t: 3 + 2t, consumed one per admission. The first 3 requests drain the
        // initial bucket (t=0, 0.1, 0.2: at t=0.2 the bucket holds 3 + 0.4 - 2 = 1.4 -> admit, 0.4 left).
        // Afterwards one token accrues every 0.5 s, so an arrival is admitted whenever >= 1 token is there:
        // t=0.5 (0.4 + 0.6 = 1.0 -> admit, 0), t=1.0 (1.0 -> admit), t=1.5 (admit). At t=1.9 only 0.8.
        // Admitted: 3 + 3 = 6 of 20.
        AdmissionPolicy p = Admissions.REGISTRY.create(new PolicySpec("token-bucket",
                Map.of("capacity", 3.0, "refill_per_s", 2.0), "p"));
        int admitted = 0;
        List<Long> when = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            long t = i * 100_000L;
            if (p.decide(req(i, "a", t), t).kind() == AdmissionDecision.Kind.ADMIT) {
                admitted++;
                when.add(t);
            }
        }
        assertEquals(6, admitted);
        assertEquals(List.of(0L, 100_000L, 200_000L, 500_000L, 1_000_000L, 1_500_000L), when);
    }

    @Test
    void perTenantBucketsAreIndependent() {
        AdmissionPolicy p = Admissions.REGISTRY.create(new PolicySpec("token-bucket",
                Map.of("capacity", 1.0, "refill_per_s", 0.0, "per_tenant", true), "p"));
        assertEquals(AdmissionDecision.Kind.ADMIT, p.decide(req(0, "a", 0), 0).kind());
        assertEquals(AdmissionDecision.Kind.REJECT, p.decide(req(1, "a", 0), 0).kind());
        assertEquals(AdmissionDecision.Kind.ADMIT, p.decide(req(2, "b", 0), 0).kind());
    }

    @Test
    void rateLimitPacesWithDelays() {
        // 5 rps -> one slot per 200 ms. Three requests at t=0: admitted, delayed 200 ms, delayed 400 ms;
        // each admitted when it comes back at its reserved slot.
        AdmissionPolicy p = Admissions.REGISTRY.create(new PolicySpec("rate-limit", Map.of("max_rps", 5.0), "p"));
        assertEquals(AdmissionDecision.Kind.ADMIT, p.decide(req(0, "a", 0), 0).kind());
        assertEquals(200_000, p.decide(req(1, "a", 0), 0).delayUs());
        assertEquals(400_000, p.decide(req(2, "a", 0), 0).delayUs());
        assertEquals(AdmissionDecision.Kind.ADMIT, p.decide(req(1, "a", 0), 200_000).kind());
        assertEquals(AdmissionDecision.Kind.ADMIT, p.decide(req(2, "a", 0), 400_000).kind());
    }

    @Test
    void tenantQuotaReleasesOnLeave() {
        AdmissionPolicy p = Admissions.REGISTRY.create(new PolicySpec("tenant-quota", Map.of("max_in_flight", 1.0), "p"));
        Request first = req(0, "a", 0);
        assertEquals(AdmissionDecision.Kind.ADMIT, p.decide(first, 0).kind());
        assertEquals(AdmissionDecision.Kind.REJECT, p.decide(req(1, "a", 0), 0).kind());
        p.onLeft(first, 10);
        assertEquals(AdmissionDecision.Kind.ADMIT, p.decide(req(2, "a", 20), 20).kind());
    }

    @Test
    void badParamsNameThePath() {
        ConfigException e = assertThrows(ConfigException.class, () -> Admissions.REGISTRY.create(
                new PolicySpec("token-bucket", Map.of("capacity", 0.0, "refill_per_s", 1.0), "policies.admission")));
        assertEquals("policies.admission.params.capacity: must be in (0, 1000000000] requests or prompt tokens (cost), got 0"
                + " (a bucket of over 10^9 requests or prompt tokens never empties in a run)", e.getMessage());
        ConfigException unknown = assertThrows(ConfigException.class, () -> Admissions.REGISTRY.create(
                PolicySpec.of("admit-some", "policies.admission")));
        assertTrue(unknown.getMessage().contains("valid: always-admit, token-bucket, rate-limit, tenant-quota, reject-all"));
    }
}
