package io.servesim.cluster;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * What happens to the work of a replica chosen for scale-down (the drain policies of BLIS macro plan, D.6:
 * inference-sim/inference-sim @ 7d4e8bac, {@code docs/plans/2026-02-11-macro-implementation-plan-v2.md};
 * a draining replica never receives new requests).
 */
public enum DrainPolicy {
    /** Finish everything in flight (queued and running), take no new work; gone when empty (Kubernetes' graceful termination). */
    WAIT,
    /**
     * Stop at once: every request in flight there (running, queued or in queueing delay) is routed
     * again to a ready replica and recomputed from its prompt (its KV is lost), counted as recomputed.
     */
    IMMEDIATE,
    /** Queued requests (and those still in queueing delay) move to other replicas; running ones finish here. */
    REDIRECT;

    /** Config name, e.g. {@code wait}. */
    public String configName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static List<String> names() {
        return Arrays.stream(values()).map(DrainPolicy::configName).toList();
    }

    public static DrainPolicy of(String name) {
        return valueOf(name.toUpperCase(Locale.ROOT));
    }
}
