package io.servesim.cluster;

import io.servesim.engine.Request;

/** Control-plane outcomes for metrics (kept out of the control plane itself). */
public interface ClusterObserver {
    /** A request reached the cluster front door. */
    void onInjected(Request r);

    /** Admission rejected {@code r} ({@code reason} from the policy). */
    void onRejected(Request r, String reason, long nowUs);

    /** Admission delayed {@code r} by {@code delayUs}. */
    void onDelayed(Request r, long delayUs);
}
