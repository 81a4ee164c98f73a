package io.servesim.sim;

import io.servesim.engine.Engine;
import io.servesim.engine.EngineConfig;
import io.servesim.engine.Request;
import io.servesim.kernel.EventKind;
import io.servesim.kernel.EventQueue;
import io.servesim.latency.LatencyModel;
import io.servesim.metrics.MetricsCollector;
import io.servesim.metrics.RecordSink;
import io.servesim.metrics.RunSummary;
import io.servesim.policy.PriorityPolicy;
import io.servesim.policy.SchedulingPolicy;
import io.servesim.workload.RequestSource;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * One deterministic, single-threaded simulation run: a request source, one engine and the event
 * loop. Requests are pulled from the source one at a time (the next arrival is the only pending
 * source event), so memory is proportional to requests in the system. The run ends when no events
 * remain, or at the horizon: then requests still queued or running are reported as unfinished.
 *
 * <p>Conservation (INV-1) is checked at the end: injected == completed + dropped + unfinished.
 */
public final class Simulation {
    private final EventQueue events = new EventQueue(1024);
    private final Engine engine;
    private final MetricsCollector metrics;
    private final RequestSource source;
    private final long horizonUs;
    private final LatencyModel latency;
    private final java.util.function.Consumer<Request> injector = this::inject;
    private Request sourcePending;
    private long injected;

    public Simulation(EngineConfig engineConfig, LatencyModel latency, SchedulingPolicy scheduler,
                      PriorityPolicy priority, RequestSource source, long horizonUs, RecordSink sink) {
        this.metrics = new MetricsCollector(sink);
        this.latency = latency;
        this.engine = new Engine(0, engineConfig, latency, scheduler, priority, events, metrics);
        this.source = source;
        this.horizonUs = horizonUs;
    }

    /** Runs to completion (or the horizon) and returns the aggregates. */
    public RunSummary run() {
        try (source) {
            scheduleNextArrival();
            loop();
            flushUnfinished();
        }
        long unfinished = metrics.unfinished();
        if (injected != metrics.completed() + metrics.dropped() + unfinished) {
            throw new IllegalStateException("INV-1: injected " + injected + " != completed " + metrics.completed()
                    + " + dropped " + metrics.dropped() + " + unfinished " + unfinished);
        }
        var kv = engine.kvCache();
        double hitRate = kv.queriedTokens() == 0 ? 0 : (double) kv.hitTokens() / kv.queriedTokens();
        long endUs = horizonUs > 0 ? Math.min(horizonUs, Math.max(events.nowUs(), 0)) : events.nowUs();
        if (horizonUs > 0 && unfinished > 0) {
            endUs = horizonUs;
        }
        return metrics.summary(latency.name(), latency.describe(), kv.totalBlocks(), injected, endUs,
                engine.preemptions(), kv.allocationFailures(), hitRate, events.processed());
    }

    private void loop() {
        while (!events.isEmpty()) {
            if (horizonUs > 0 && events.peekTimeUs() > horizonUs) {
                return;
            }
            events.pop();
            long now = events.poppedTimeUs();
            Object ref = events.poppedRef();
            EventKind kind = events.poppedKind();
            switch (kind) {
                case ARRIVAL -> {
                    Request r = (Request) ref;
                    injected++;
                    metrics.onInjected(r);
                    engine.onArrival(r, now);
                    if (r == sourcePending) {
                        scheduleNextArrival();
                    }
                }
                case QUEUED -> engine.onQueued((Request) ref, now);
                case STEP -> engine.onStep(now);
                case SCHEDULED -> { }
                case REQUEST_LEFT -> {
                    Request r = (Request) ref;
                    engine.onLeft(r, now);
                    source.onLeft(r, now, injector);
                }
                case CLUSTER_ARRIVAL -> throw new IllegalStateException("cluster event in a single-instance run");
            }
        }
    }

    /** A follow-up request from a closed-loop source (arrival must not be in the past). */
    private void inject(Request r) {
        events.schedule(r.arrivalUs(), EventKind.ARRIVAL, 0, r);
    }

    private void scheduleNextArrival() {
        Request next = source.next();
        sourcePending = next;
        if (next != null) {
            events.schedule(Math.max(next.arrivalUs(), events.nowUs()), EventKind.ARRIVAL, 0, next);
        }
    }

    /** At the horizon: every request that arrived but has not left is reported, in id order. */
    private void flushUnfinished() {
        List<Request> left = new ArrayList<>();
        events.forEachPending((kind, ref) -> {
            if ((kind == EventKind.QUEUED || kind == EventKind.REQUEST_LEFT) && ref instanceof Request r) {
                left.add(r);
            }
        });
        engine.drainUnfinished(left::add);
        left.sort(Comparator.comparingLong(Request::id));
        left.forEach(metrics::onUnfinished);
    }

    /** The engine (for tests and invariant checks). */
    public Engine engine() {
        return engine;
    }

    public long injected() {
        return injected;
    }
}
