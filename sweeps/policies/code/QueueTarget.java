import io.servesim.policy.api.AutoscalePolicy;
import io.servesim.policy.api.ScaleView;

/**
 * Autoscaling as code: Kubernetes HPA's rule on in-flight requests, desired = ceil(ready x in-flight per replica /
 * TARGET), with a cooldown after each action so the fleet does not oscillate; the autoscaler clamps the answer to
 * autoscaling.min .. max.
 */
public final class QueueTarget implements AutoscalePolicy {
    private static final double TARGET = 16;
    private static final long COOLDOWN_US = 120_000_000;

    @Override
    public int desiredReplicas(ScaleView s) {
        if (s.sinceLastScaleUs() < COOLDOWN_US) {
            return s.currentReplicas();
        }
        return (int) Math.ceil(s.readyReplicas() * s.avgInFlight() / TARGET);
    }

    @Override
    public String explain(ScaleView s, int desired) {
        return "ceil(" + s.readyReplicas() + " x in_flight " + s.avgInFlight() + " / " + TARGET + ")";
    }
}
