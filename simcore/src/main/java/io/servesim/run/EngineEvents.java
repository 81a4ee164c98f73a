package io.servesim.run;

import io.servesim.cluster.ClusterView;
import io.servesim.cluster.ControlPlane;
import io.servesim.disagg.PdCoordinator;
import io.servesim.engine.Engine;
import io.servesim.engine.EngineObserver;
import io.servesim.engine.Request;
import io.servesim.latency.StepShape;
import io.servesim.metrics.MetricsCollector;

/**
 * A run's engine observer: every engine event goes to the metrics; preemptions also to the control
 * plane (decision traces, admission quotas), steps to the cluster view's step-time signal and to the
 * P/D coordinator's pool accounting. The engines exist before those three, so they are bound once
 * the simulation has built them ({@link #bind}); no event happens before the run starts.
 */
final class EngineEvents implements EngineObserver {
    private final MetricsCollector metrics;
    private ControlPlane control;
    private ClusterView view;
    private PdCoordinator pd;

    EngineEvents(MetricsCollector metrics) {
        this.metrics = metrics;
    }

    /** The run's control plane, cluster view and P/D coordinator (null without P/D). */
    void bind(ControlPlane control, ClusterView view, PdCoordinator pd) {
        this.control = control;
        this.view = view;
        this.pd = pd;
    }

    @Override
    public void onFirstScheduled(Engine e, Request r, long nowUs) {
        metrics.onFirstScheduled(e, r, nowUs);
    }

    @Override
    public void onPreempted(Engine e, Request r, long nowUs) {
        metrics.onPreempted(e, r, nowUs);
        control.onPreempted(r, e.id(), nowUs);
    }

    @Override
    public void onStep(Engine e, long nowUs, long stepTimeUs, StepShape shape) {
        metrics.onStep(e, nowUs, stepTimeUs, shape);
        view.onStep(e.id(), stepTimeUs);
        if (pd != null) {
            pd.onStep(e.id(), stepTimeUs, e.kvCache().utilization());
        }
    }

    @Override
    public void onInterTokenLatency(long itlUs, int count) {
        metrics.onInterTokenLatency(itlUs, count);
    }

    @Override
    public void onLeft(Engine e, Request r, long nowUs) {
        metrics.onLeft(e, pd == null ? r : pd.original(r), nowUs);
    }
}
