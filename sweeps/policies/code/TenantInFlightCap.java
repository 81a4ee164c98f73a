import io.servesim.policy.api.Admission;
import io.servesim.policy.api.AdmissionPolicy;
import io.servesim.policy.api.RequestView;
import java.util.HashMap;
import java.util.Map;

/**
 * Admission as code: each tenant may have at most MAX_IN_FLIGHT admitted requests that have not left; beyond that a
 * request waits DELAY_US and asks again (pacing rather than rejecting, as an API gateway's concurrency limit with a
 * retry does). The count lives in a field and changes only from decide and onLeft.
 */
public final class TenantInFlightCap implements AdmissionPolicy {
    private static final int MAX_IN_FLIGHT = 64;
    private static final long DELAY_US = 50_000;

    private final Map<String, Integer> inFlight = new HashMap<>();

    @Override
    public Admission decide(RequestView request, long nowUs) {
        int current = inFlight.getOrDefault(request.tenantId(), 0);
        if (current >= MAX_IN_FLIGHT) {
            return Admission.delay(DELAY_US, "tenant " + request.tenantId() + " has " + current + " requests in flight");
        }
        inFlight.put(request.tenantId(), current + 1);
        return Admission.admit();
    }

    @Override
    public void onLeft(RequestView request, long nowUs) {
        inFlight.merge(request.tenantId(), -1, Integer::sum);
    }
}
