package io.servesim.run;

import io.servesim.cluster.Autoscaler;
import io.servesim.cluster.ControlPlane;
import io.servesim.engine.Request;
import io.servesim.kernel.EventKind;

/**
 * Autoscaling in the event loop ({@code autoscaling.enabled}): the periodic scale check and the replicas' lifecycle
 * events, the scaling window's arrivals and departures, a replica retired once it has drained, and the requests that
 * reach a replica while it evacuates (sent elsewhere, or redirected from its wait queue).
 */
final class AutoscalingFeature implements RunFeature {
    private final Autoscaler autoscaler;
    private final ControlPlane control;

    AutoscalingFeature(Autoscaler autoscaler, ControlPlane control) {
        this.autoscaler = autoscaler;
        this.control = control;
    }

    @Override
    public void register(EventHandlers handlers) {
        handlers.on(EventKind.SCALE_CHECK, (target, ref, now) -> autoscaler.onCheck(now, control.liveScrapeChains()));
        handlers.on(EventKind.REPLICA_LIFECYCLE, (target, ref, now) -> autoscaler.onLifecycle(target, (Integer) ref, now));
    }

    @Override
    public void start() {
        autoscaler.start();
    }

    /**
     * The next check and pending lifecycle steps: the run ends with the last request's work, as they change nothing a
     * request sees (no request can be waiting without an event).
     */
    @Override
    public int backgroundEvents() {
        return autoscaler.backgroundEvents();
    }

    @Override
    public void onClusterArrival(Request r) {
        autoscaler.window().onArrival();
    }

    /** After an on-demand pull: a replica that started evacuating meanwhile sends the request elsewhere. */
    @Override
    public boolean tookArrival(int instance, Request r, long nowUs) {
        autoscaler.fleet().arrived(instance);
        if (!autoscaler.evacuating(instance)) {
            return false;
        }
        control.reroute(instance, r, nowUs);
        autoscaler.maybeRetire(instance, nowUs);
        return true;
    }

    /** A replica evacuating its queue redirects the request (immediate drain). */
    @Override
    public boolean tookQueued(int instance, Request r, long nowUs) {
        if (!autoscaler.evacuating(instance)) {
            return false;
        }
        autoscaler.redirectQueued(instance, r, nowUs);
        return true;
    }

    @Override
    public void afterStep(int instance, long nowUs) {
        autoscaler.maybeRetire(instance, nowUs);
    }

    @Override
    public void afterLeft(int instance, Request r, long nowUs) {
        autoscaler.window().onLeft(r, autoscaler.fleet().starting() > 0);
        autoscaler.maybeRetire(instance, nowUs);
    }
}
