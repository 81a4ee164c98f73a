package io.servesim.run;

import io.servesim.cluster.Autoscaler;
import io.servesim.cluster.AutoscalingConfig;
import io.servesim.cluster.ClusterObserver;
import io.servesim.cluster.Fleet;
import io.servesim.cluster.ClusterView;
import io.servesim.cluster.ControlPlane;
import io.servesim.cluster.RoutingPolicy;
import io.servesim.decisions.DecisionSink;
import io.servesim.decisions.TraceOptions;
import io.servesim.disagg.HandoffView;
import io.servesim.disagg.PdCoordinator;
import io.servesim.disagg.PdDecider;
import io.servesim.disagg.PdSetup;
import io.servesim.disagg.PoolSetup;
import io.servesim.engine.Engine;
import io.servesim.engine.EngineTotals;
import io.servesim.engine.Request;
import io.servesim.kernel.EventKind;
import io.servesim.kernel.EventQueue;
import io.servesim.metrics.Handoff;
import io.servesim.metrics.KvTierSummary;
import io.servesim.metrics.MetricsCollector;
import io.servesim.metrics.RecordSink;
import io.servesim.metrics.RunSummary;
import io.servesim.metrics.PdSummary;
import io.servesim.metrics.ScalingSummary;
import io.servesim.metrics.SessionSink;
import io.servesim.metrics.SessionStats;
import io.servesim.policy.PolicyContext;
import io.servesim.policy.routing.Routers;
import io.servesim.workload.RequestSource;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;

/**
 * One deterministic, single-threaded simulation run: a request source, a control plane and N
 * engine instances sharing one clock and one event queue (one global heap: the next event across
 * all instances in O(log events), never a scan over instances). Requests are pulled from the source
 * one at a time, so memory is proportional to requests in the system. The run ends when no events
 * remain, or at the horizon: then requests still queued or running are reported as unfinished.
 *
 * <p>Conservation (INV-1) is checked at the end: injected == completed + dropped + rejected + unfinished
 * (unfinished: queued or running at the horizon). Sources learn of every request that leaves,
 * rejected ones included, and of the end of the run, so sessions end with a status instead of hanging.
 *
 * <p>With {@code autoscaling.enabled} the engines live in {@code max} x 2 slots (room for replicas still
 * draining while new ones start) of which {@code deployment.instances} start ready; an
 * {@link Autoscaler} adds and removes replicas, and routing sees only the ready ones.
 */
public final class Simulation {
    private final EventQueue events = new EventQueue(1024);
    private final SimSetup setup;
    private final Engine[] engines;
    private final ControlPlane control;
    private final Autoscaler autoscaler;
    private final MetricsCollector metrics;
    private final RequestSource source;
    private final Consumer<Request> injector = this::inject;
    private final SessionStats sessionStats;
    /** The features taking part in the loop ({@link RunFeature}), in the order their hooks run. */
    private final RunFeature[] features;
    private final EventHandlers featureEvents = new EventHandlers();
    /** P/D disaggregation (deployment.architecture: pd), or null. */
    private final PdCoordinator pd;
    private Request sourcePending;
    private long injected;

    public Simulation(SimSetup setup, RequestSource source, RecordSink sink) {
        this(setup, source, sink, SessionSink.NONE);
    }

    /** A run that also streams one record per agentic session to {@code sessions}. */
    public Simulation(SimSetup setup, RequestSource source, RecordSink sink, SessionSink sessions) {
        this(setup, source, sink, sessions, UnaryOperator.identity());
    }

    /**
     * A run whose routing policy (under P/D both pools' routers) is wrapped by {@code routingWrap} (re-simulation of
     * one decision: {@link ForcedRoute}).
     */
    Simulation(SimSetup setup, RequestSource source, RecordSink sink, SessionSink sessions,
               UnaryOperator<RoutingPolicy> routingWrap) {
        this.setup = setup;
        this.source = source;
        this.metrics = new MetricsCollector(sink, setup.slo());
        this.sessionStats = new SessionStats(sessions);
        source.reportSessionsTo(sessionStats);
        int n = setup.cluster().instances();
        AutoscalingConfig scaling = setup.autoscaling();
        PdSetup pdSetup = setup.pd();
        // the specs were bound with their files' directories (a code policy's source is absolute by now)
        PolicyContext ctx = new PolicyContext(scaling.enabled() ? scaling.maxReplicas() : n, setup.slo())
                .withCpuKvTier((pdSetup == null ? setup.engine() : pdSetup.prefill().engine()).kvTiers().enabled());
        this.engines = new Engine[scaling.enabled() ? 2 * scaling.maxReplicas() : n];
        EngineEvents observer = new EngineEvents(metrics);
        PolicyBundle policies = setup.policies();
        for (int i = 0; i < n; i++) {
            PoolSetup pool = pdSetup == null ? null : i < pdSetup.prefill().replicas() ? pdSetup.prefill() : pdSetup.decode();
            engines[i] = new Engine(i, pool == null ? setup.engine() : pool.engine(),
                    pool == null ? setup.latency() : pool.latency(), PolicyKind.SCHEDULER.create(policies, ctx), events, observer,
                    setup.frontEnd());
        }
        if (setup.expertParallel() != null) {
            new io.servesim.engine.Lockstep(engines, setup.expertParallel(), events);
        }
        Fleet fleet = scaling.enabled() ? new Fleet(engines, n, id -> new Engine(id, setup.engine(), setup.latency(),
                PolicyKind.SCHEDULER.create(policies, ctx), events, observer, setup.frontEnd())) : null;
        RoutingPolicy routing = routingWrap.apply(PolicyKind.ROUTING.create(policies, ctx));
        RoutingPolicy decodeRouting = pdSetup == null ? null : routingWrap.apply(Routers.REGISTRY.create(
                setup.decodeRouting(), ctx.withCpuKvTier(pdSetup.decode().engine().kvTiers().enabled())));
        ClusterView view = new ClusterView(engines, fleet, setup.cluster().observability(),
                pdSetup == null ? routing.signalsRead() : pdSignals(pdSetup, routing, decodeRouting));
        // A rejected request leaves the system at the decision: the source learns of it as of any other.
        ClusterObserver clusterObserver = new ClusterObserver() {
            @Override
            public void onInjected(Request r) {
                metrics.onInjected(r);
            }

            @Override
            public void onRejected(Request r, String reason, long nowUs) {
                metrics.onRejected(r, reason, nowUs);
                sourceLeft(r, nowUs);
            }

            @Override
            public void onDelayed(Request r, long delayUs) {
                metrics.onDelayed(r, delayUs);
            }
        };
        this.control = new ControlPlane(setup.cluster(), PolicyKind.ADMISSION.create(policies, ctx),
                PolicyKind.PRIORITY.create(policies, ctx), routing, engines, view, events, clusterObserver);
        this.autoscaler = fleet == null ? null : new Autoscaler(scaling, PolicyKind.AUTOSCALE.create(policies, ctx), fleet,
                view, events, setup.slo(), control::reroute);
        if (autoscaler != null) {
            control.autoscaleWith(autoscaler);
        }
        this.pd = pdSetup == null ? null : new PdCoordinator(pdSetup, engines, view, routing,
                policies.spec(PolicyKind.ROUTING).name(), decodeRouting, setup.decodeRouting().name(), events, control);
        if (pd != null) {
            control.dispatchWith(pd);
            metrics.handoffsFrom(r -> {
                HandoffView h = pd.handoff(r.id());
                return h == null ? Handoff.NONE : new Handoff(h.prefillInstance(), h.decodeInstance(), h.transferStartUs(),
                        h.transferEndUs(), h.bandwidthWaitUs(), h.decodeAllocWaitUs());
            });
        }
        observer.bind(control, view, pd);
        List<RunFeature> on = new ArrayList<>();
        if (setup.frontEnd().defaultNetworkRttUs() > 0) {
            on.add(new ClientNetworkFeature(setup.frontEnd().defaultNetworkRttUs()));
        }
        if (pd != null) {
            on.add(new PdFeature(pd));
        }
        if (autoscaler != null) {
            on.add(new AutoscalingFeature(autoscaler, control));
        }
        this.features = on.toArray(RunFeature[]::new);
        for (RunFeature f : features) {
            f.register(featureEvents);
        }
    }

    /** What the pools' routers read, and the prefix index when the decider measures the uncached prompt. */
    private static java.util.Set<io.servesim.cluster.Signal> pdSignals(PdSetup pd, RoutingPolicy prefill, RoutingPolicy decode) {
        java.util.Set<io.servesim.cluster.Signal> read = java.util.EnumSet.noneOf(io.servesim.cluster.Signal.class);
        read.addAll(prefill.signalsRead());
        read.addAll(decode.signalsRead());
        if (pd.decider() == PdDecider.PREFIX_THRESHOLD) {
            read.add(io.servesim.cluster.Signal.PREFIX_CACHE);
        }
        return read;
    }

    /**
     * Streams every admission, priority, routing and preemption decision, and every scale action, to {@code sink} at the
     * level {@code options} asks (decision traces; off by default, and then nothing is recorded).
     */
    public Simulation traceDecisions(DecisionSink sink, TraceOptions options) {
        PolicyBundle p = setup.policies();
        control.traceDecisions(sink, options, p.spec(PolicyKind.ADMISSION).name(), p.spec(PolicyKind.PRIORITY).name(),
                p.spec(PolicyKind.ROUTING).name(), p.spec(PolicyKind.SCHEDULER).name(), p.spec(PolicyKind.AUTOSCALE).name());
        return this;
    }

    /** Runs to completion (or the horizon) and returns the aggregates. */
    public RunSummary run() {
        boolean cut;
        try (source) {
            scheduleNextArrival();
            control.start();
            for (RunFeature f : features) {
                f.start();
            }
            cut = loop();
            flushUnfinished();
            source.endOfRun(cut ? setup.horizonUs() : events.nowUs(), cut);
        }
        long unfinished = metrics.unfinished();
        if (injected != metrics.completed() + metrics.dropped() + metrics.rejected() + unfinished) {
            throw new IllegalStateException("INV-1: injected " + injected + " != completed " + metrics.completed()
                    + " + dropped " + metrics.dropped() + " + rejected " + metrics.rejected() + " + unfinished " + unfinished);
        }
        EngineTotals totals = new EngineTotals();
        if (autoscaler != null) {
            totals.add(autoscaler.counters().retired());
        }
        for (Engine e : engines) {
            if (e != null) {
                totals.add(e);
            }
        }
        long hits = totals.tiers().hitTokens();
        long queried = totals.tiers().queriedTokens();
        long preemptedQueried = totals.preemptedQueriedTokens();
        long horizon = setup.horizonUs();
        long endUs = horizon > 0 && unfinished > 0 ? horizon : events.nowUs();
        var latency = setup.latency();
        ScalingSummary scaling = ScalingSummaries.of(setup, autoscaler, endUs);
        PdSummary pdPart = PdSummaries.of(setup, pd, scaling);
        String described = setup.expertParallel() != null ? setup.expertParallel().describe() : latency.describe();
        RunSummary.Builder run = RunSummary.builder()
                .put("latency_model", pdPart.latencyModel(latency.name()))
                .put("latency_description", pdPart.latencyDescription(described))
                .put("latency_calibration_note", calibrationNote())
                .put("total_kv_blocks", pdPart.totalKvBlocks(setup.engine().totalKvBlocks()))
                .put("injected", injected)
                .put("preemptions", totals.preemptions())
                .put("kv_allocation_failures", totals.allocationFailures())
                .put("prefix_hit_rate", queried == 0 ? 0 : (double) hits / queried)
                .put("preempted_prefix_hit_rate",
                        preemptedQueried == 0 ? 0 : (double) totals.preemptedHitTokens() / preemptedQueried)
                .put("events_processed", events.processed())
                .put("skipped_trace_lines", source.skippedLines())
                .put("spec_verify_steps", totals.specVerifySteps()).put("spec_draft_tokens", totals.specDraftTokens())
                .put("spec_accepted_tokens", totals.specAcceptedTokens())
                .put("encoder_items", totals.encoderItems()).put("encoder_tokens", totals.encoderTokens())
                .put("encoder_cache_hits", totals.encoderCacheHits())
                .kvTiers(KvTierSummary.of(totals.tiers())).autoscaling(scaling).sessions(sessionStats.byClient());
        return metrics.summary(run, endUs, requestsPerInstance(), totals.headOfLineBlocks(), pdPart, setup.fitness());
    }

    /**
     * Runs events in order; true when it stopped at the horizon with events still pending. The core of each event
     * kind runs here; the features' hooks around it ({@link RunFeature}) and their own event kinds
     * ({@link EventHandlers}) plug in without this loop naming them.
     */
    private boolean loop() {
        long horizon = setup.horizonUs();
        long maxEvents = setup.maxEvents();
        while (events.size() > backgroundEvents()) {
            if (horizon > 0 && events.peekTimeUs() > horizon) {
                return true;
            }
            if (events.processed() >= maxEvents) {
                throw new RunLimitException(maxEvents, events.nowUs(), injected - metrics.completed() - metrics.dropped()
                        - metrics.rejected(), metrics.delayed(), injected);
            }
            events.pop();
            long now = events.poppedTimeUs();
            Object ref = events.poppedRef();
            int target = events.poppedTarget();
            switch (events.poppedKind()) {
                case CLUSTER_ARRIVAL -> onClusterArrival((Request) ref, now);
                case ADMISSION -> control.admit((Request) ref, now);
                case ROUTING -> control.route((Request) ref, now);
                case SNAPSHOT_REFRESH -> control.onScrape((Long) ref, now);
                case ARRIVAL -> onArrival(target, (Request) ref, now);
                case QUEUED -> onQueued(target, (Request) ref, now);
                case KV_LOADED -> engines[target].onKvLoaded((Request) ref, now);
                case STEP -> onStep(target, now);
                case REQUEST_LEFT -> onLeft(target, (Request) ref, now);
                default -> featureEvents.dispatch(events.poppedKind(), target, ref, now);
            }
        }
        return false;
    }

    /** Pending events of the features that do not hold the run open ({@link RunFeature#backgroundEvents}). */
    private int backgroundEvents() {
        int n = 0;
        for (RunFeature f : features) {
            n += f.backgroundEvents();
        }
        return n;
    }

    private void onClusterArrival(Request r, long now) {
        injected++;
        for (RunFeature f : features) {
            f.onClusterArrival(r);
        }
        control.onClusterArrival(r, now);
        if (r == sourcePending) {
            scheduleNextArrival();
        }
    }

    private void onArrival(int target, Request r, long now) {
        for (RunFeature f : features) {
            if (f.tookArrival(target, r, now)) {
                return;
            }
        }
        engines[target].onArrival(r, now);
    }

    private void onQueued(int target, Request r, long now) {
        for (RunFeature f : features) {
            if (f.tookQueued(target, r, now)) {
                return;
            }
        }
        engines[target].onQueued(r, now);
    }

    private void onStep(int target, long now) {
        for (RunFeature f : features) {
            f.beforeStep(target, now);
        }
        engines[target].onStep(now);
        for (RunFeature f : features) {
            f.afterStep(target, now);
        }
    }

    private void onLeft(int target, Request left, long now) {
        engines[target].onLeft(left, now);
        Request r = left;
        for (RunFeature f : features) {
            r = f.leftEngine(target, r, now);
        }
        control.onLeft(r, now);
        for (RunFeature f : features) {
            f.afterLeft(target, r, now);
        }
        sourceLeft(r, now);
    }

    /**
     * The summary's uncalibrated-latency note: the deployment's model's, or under P/D each pool's
     * (a pool may run another GPU), prefixed with the pool's name.
     */
    private String calibrationNote() {
        PdSetup p = setup.pd();
        if (p == null) {
            return setup.latency().calibrationNote();
        }
        List<String> notes = new ArrayList<>();
        for (PoolSetup pool : List.of(p.prefill(), p.decode())) {
            String note = pool.latency().calibrationNote();
            if (!note.isEmpty()) {
                notes.add(pool.name() + " pool " + note);
            }
        }
        return String.join("; ", notes);
    }

    /**
     * Requests per instance id, each counted once where it was last routed ({@link ControlPlane#routedCounts});
     * under autoscaling over the replica slots that ever held a replica, not the free ones.
     */
    private long[] requestsPerInstance() {
        long[] routed = control.routedCounts();
        return autoscaler == null ? routed : java.util.Arrays.copyOf(routed, autoscaler.fleet().slotsUsed());
    }

    /** The autoscaler (null when autoscaling is off), for the replica timeline and tests. */
    public Autoscaler autoscaler() {
        return autoscaler;
    }

    /**
     * A follow-up request from a closed-loop source, arriving now or later (after a think time or a
     * tool call): a future CLUSTER_ARRIVAL event. An arrival in the past would break causality.
     */
    private void inject(Request r) {
        if (r.arrivalUs() < events.nowUs()) {
            throw new IllegalStateException("injected request " + r.id() + " arrives at " + r.arrivalUs()
                    + ", before now (" + events.nowUs() + ")");
        }
        events.schedule(r.arrivalUs(), EventKind.CLUSTER_ARRIVAL, -1, r);
    }

    /**
     * {@code r} left the system: the source may inject follow-ups, and a source that had run dry may have requests
     * again (a staged load's next stage, once the previous one drained).
     */
    private void sourceLeft(Request r, long nowUs) {
        source.onLeft(r, nowUs, injector);
        if (sourcePending == null && source.resumed()) {
            scheduleNextArrival();
        }
    }

    private void scheduleNextArrival() {
        Request next = source.next();
        sourcePending = next;
        if (next != null) {
            events.schedule(Math.max(next.arrivalUs(), events.nowUs()), EventKind.CLUSTER_ARRIVAL, -1, next);
        }
    }

    /** At the horizon: every request that arrived but has not left is reported, in id order. */
    private void flushUnfinished() {
        List<Request> left = new ArrayList<>();
        events.forEachPending((kind, ref) -> {
            boolean inSystem = kind == EventKind.ADMISSION || kind == EventKind.ROUTING || kind == EventKind.ARRIVAL
                    || kind == EventKind.QUEUED || kind == EventKind.KV_LOADED || kind == EventKind.REQUEST_LEFT
                    || kind == EventKind.PREFILL_DONE || kind == EventKind.KV_RECEIVED;
            if (inSystem && ref instanceof Request r) {
                left.add(r);
            }
        });
        for (Engine e : engines) {
            if (e != null) {
                e.drainUnfinished(left::add);
            }
        }
        for (RunFeature f : features) {
            f.unfinished(left);
        }
        left.sort(Comparator.comparingLong(Request::id));
        long horizonUs = setup.horizonUs() > 0 ? setup.horizonUs() : Long.MAX_VALUE;
        left.forEach(r -> metrics.onUnfinished(r, horizonUs));
    }

    /** The engines (for tests and invariant checks). */
    public Engine[] engines() {
        return engines.clone();
    }

    public Engine engine() {
        return engines[0];
    }

    public long injected() {
        return injected;
    }
}
