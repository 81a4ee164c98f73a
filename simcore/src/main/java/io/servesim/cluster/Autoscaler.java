package io.servesim.cluster;

import io.servesim.engine.Engine;
import io.servesim.engine.Request;
import io.servesim.kernel.EventKind;
import io.servesim.kernel.EventQueue;
import io.servesim.slo.SloTargets;
import java.util.ArrayList;
import java.util.List;

/**
 * The actuator behind an {@link AutoScalePolicy} (BLIS macro plan, D.6, PR 11 and PR 12:
 * inference-sim/inference-sim @ 7d4e8bac, {@code docs/plans/2026-02-11-macro-implementation-plan-v2.md}):
 * a periodic SCALE_CHECK event computes {@link ScaleSignals}, asks the policy, clamps its answer to
 * {@code [min, max]} (counting clamped decisions) and adds or removes replicas. A new replica goes
 * through {@link ReplicaState}'s lifecycle on REPLICA_LIFECYCLE events. Scale-down picks victims
 * by Kubernetes' ReplicaSet rule (controller {@code getPodsToDelete}: not-ready pods before ready
 * ones), then fewest requests in flight, then the highest id; a starting victim is gone at once, a
 * ready one drains per the {@link DrainPolicy}. An up followed by a down (or the reverse) within
 * the oscillation window counts as an oscillation. Invariant after every action (a debug-mode
 * assertion): min <= ready + starting <= max. In a traced run every check whose policy asked for a
 * change is a scale decision record (from -> to replicas, the policy's reason).
 */
public final class Autoscaler {
    /** Routes again a request that must leave replica {@code fromId} (the control plane's {@code reroute}). */
    @FunctionalInterface
    public interface Reroute {
        void from(int fromId, Request r, long nowUs);
    }

    private final AutoscalingConfig config;
    private final AutoScalePolicy policy;
    private final Fleet fleet;
    private final ClusterView view;
    private final EventQueue events;
    private final Reroute reroute;
    private final ScaleWindow window;
    private final ScaleCounters counters;
    private final long[] requestedUs;
    private final List<Request> moved = new ArrayList<>();
    private int pendingLifecycle;
    private boolean checkPending;
    private DecisionTracer tracer;

    public Autoscaler(AutoscalingConfig config, AutoScalePolicy policy, Fleet fleet, ClusterView view, EventQueue events,
                      SloTargets slo, Reroute reroute) {
        this.config = config;
        this.policy = policy;
        this.fleet = fleet;
        this.view = view;
        this.events = events;
        this.reroute = reroute;
        this.window = new ScaleWindow(config, slo);
        this.counters = new ScaleCounters(config.oscillationWindowUs());
        this.requestedUs = new long[fleet.slots()];
    }

    /** Scale actions go to {@code t} (a traced run). */
    void traceWith(DecisionTracer t) {
        this.tracer = t;
    }

    /** Schedules the first check. */
    public void start() {
        events.schedule(config.checkIntervalUs(), EventKind.SCALE_CHECK, -1, null);
        checkPending = true;
    }

    /** Pending events that are not requests' work: lifecycle steps and the next check (a run ends when nothing else is pending). */
    public int backgroundEvents() {
        return pendingLifecycle + (checkPending ? 1 : 0);
    }

    public Fleet fleet() { return fleet; }
    public ScaleWindow window() { return window; }
    public ScaleCounters counters() { return counters; }

    /** SCALE_CHECK: decide and act; the next check follows while requests' work is pending. */
    public void onCheck(long nowUs, int otherRecurring) {
        checkPending = false;
        ScaleSignals s = signals(nowUs);
        int desired = policy.desiredReplicas(s);
        int clamped = Math.max(config.minReplicas(), Math.min(config.maxReplicas(), desired));
        if (clamped != desired) {
            counters.clamped++;
        }
        int current = fleet.current();
        if (clamped > current) {
            int added = 0;
            for (int i = current; i < clamped; i++) {
                added += scaleUp(nowUs) ? 1 : 0;
            }
            if (added < clamped - current) {
                counters.clamped++;
            }
            if (added > 0) {
                counters.onAction(true, nowUs);
            }
        } else if (clamped < current) {
            for (int i = clamped; i < current; i++) {
                scaleDown(nowUs);
            }
            counters.onAction(false, nowUs);
        }
        if (tracer != null && desired != current) {
            tracer.scale(nowUs, s, desired, current, fleet.current(), policy.explain(s, desired));
        }
        assert boundsHold() : "bounds: min " + config.minReplicas() + " <= ready + starting " + fleet.current()
                + " <= max " + config.maxReplicas();
        if (events.size() - pendingLifecycle - otherRecurring > 0) {
            events.schedule(nowUs + config.checkIntervalUs(), EventKind.SCALE_CHECK, -1, null);
            checkPending = true;
        }
    }

    /** The bounds invariant. */
    public boolean boundsHold() {
        return fleet.current() >= config.minReplicas() && fleet.current() <= config.maxReplicas();
    }

    private ScaleSignals signals(long nowUs) {
        int n = view.instances();
        double queue = 0;
        double kv = 0;
        double inFlight = 0;
        for (int k = 0; k < n; k++) {
            queue += view.queueDepth(k);
            kv += view.kvUtilization(k);
            inFlight += view.inFlight(k);
        }
        double avgInFlight = n == 0 ? 0 : inFlight / n;
        window.closeBucket(avgInFlight);
        return new ScaleSignals(nowUs, fleet.current(), n, config.minReplicas(), config.maxReplicas(),
                n == 0 ? 0 : queue / n, n == 0 ? 0 : kv / n, avgInFlight, window.ratePerS(nowUs), window.sloAttainment(),
                counters.sinceLastActionUs(nowUs), window.recentLoad());
    }

    private boolean scaleUp(long nowUs) {
        int slot = fleet.provision(nowUs);
        if (slot < 0) {
            return false;
        }
        requestedUs[slot] = nowUs;
        counters.scaleUps++;
        lifecycle(slot, nowUs + config.provisioningUs());
        return true;
    }

    private void lifecycle(int slot, long atUs) {
        pendingLifecycle++;
        events.schedule(atUs, EventKind.REPLICA_LIFECYCLE, slot, fleet.generation(slot));
    }

    /** REPLICA_LIFECYCLE: the replica in {@code slot} finished its current phase (stale if it was cancelled). */
    public void onLifecycle(int slot, int generation, long nowUs) {
        pendingLifecycle--;
        if (fleet.generation(slot) != generation) {
            return;
        }
        switch (fleet.state(slot)) {
            case PROVISIONING -> {
                fleet.advance(slot, ReplicaState.LOADING, nowUs);
                lifecycle(slot, nowUs + config.loadUs());
            }
            case LOADING -> {
                fleet.advance(slot, ReplicaState.WARMING, nowUs);
                lifecycle(slot, nowUs + config.warmupUs());
            }
            case WARMING -> {
                fleet.advance(slot, ReplicaState.READY, nowUs);
                view.attach(slot);
                counters.onReady(nowUs - requestedUs[slot]);
            }
            default -> throw new IllegalStateException("lifecycle event for a " + fleet.state(slot) + " replica " + slot);
        }
    }

    /** Victim: a starting replica before a ready one, then fewest in flight, then the highest id. */
    private void scaleDown(long nowUs) {
        int victim = -1;
        long victimLoad = Long.MAX_VALUE;
        boolean victimStarting = false;
        for (int i = fleet.slots() - 1; i >= 0; i--) {
            ReplicaState s = fleet.state(i);
            if (s == null || s == ReplicaState.DRAINING) {
                continue;
            }
            boolean starting = s.starting();
            long load = starting ? 0 : view.engine(i).inFlight();
            if (victim < 0 || (starting && !victimStarting) || (starting == victimStarting && load < victimLoad)) {
                victim = i;
                victimLoad = load;
                victimStarting = starting;
            }
        }
        counters.scaleDowns++;
        if (victimStarting) {
            fleet.free(victim, nowUs);
            return;
        }
        fleet.advance(victim, ReplicaState.DRAINING, nowUs);
        Engine e = view.engine(victim);
        if (config.drain() == DrainPolicy.IMMEDIATE) {
            e.evacuateRunning(moved::add);
            counters.recomputed += moved.size();
        }
        if (config.drain() != DrainPolicy.WAIT) {
            e.evacuateWaiting(moved::add);
        }
        rerouteMoved(victim, nowUs);
        maybeRetire(victim, nowUs);
    }

    private void rerouteMoved(int fromSlot, long nowUs) {
        counters.rerouted += moved.size();
        for (Request r : moved) {
            reroute.from(fromSlot, r, nowUs);
        }
        moved.clear();
    }

    /** Whether requests reaching {@code slot} now must go elsewhere (it drains by moving its queue). */
    public boolean evacuating(int slot) {
        return fleet.state(slot) == ReplicaState.DRAINING && config.drain() != DrainPolicy.WAIT;
    }

    /** A request in queueing delay reached an evacuating replica: it is routed again. */
    public void redirectQueued(int slot, Request r, long nowUs) {
        view.engine(slot).abandon(r);
        if (config.drain() == DrainPolicy.IMMEDIATE) {
            counters.recomputed++;
        }
        moved.add(r);
        rerouteMoved(slot, nowUs);
        maybeRetire(slot, nowUs);
    }

    /** A draining replica with nothing in flight, no step pending and nothing on its way is gone. */
    public void maybeRetire(int slot, long nowUs) {
        if (fleet.state(slot) != ReplicaState.DRAINING) {
            return;
        }
        Engine e = view.engine(slot);
        if (e.inFlight() == 0 && !e.stepPending() && fleet.inboundCount(slot) == 0) {
            view.detach(slot);
            counters.retired(fleet.free(slot, nowUs));
        }
    }
}
