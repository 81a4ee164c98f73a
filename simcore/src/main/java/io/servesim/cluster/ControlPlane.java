package io.servesim.cluster;

import io.servesim.decisions.DecisionSink;
import io.servesim.decisions.TraceOptions;
import io.servesim.engine.Engine;
import io.servesim.engine.Request;
import io.servesim.kernel.EventKind;
import io.servesim.kernel.EventQueue;

/**
 * The cluster's front door, online at decision time (never pre-dispatched), after BLIS's cluster
 * events ({@code sim/cluster/cluster_event.go}): cluster arrival -> (admission latency) admission
 * decision -> priority assignment -> (routing latency) routing decision -> instance arrival.
 * Zero latencies are handled inline, so a one-instance cluster processes exactly the events of a
 * lone engine. Periodic observability is driven by recurring scrape events that stop when nothing
 * else is pending.
 */
public final class ControlPlane {
    private final ClusterConfig config;
    private final AdmissionPolicy admission;
    private final PriorityPolicy priority;
    private final RoutingPolicy routing;
    private final Engine[] engines;
    private final ClusterView view;
    private final EventQueue events;
    private final ClusterObserver observer;
    private final long pullLatencyUs;
    private final long[] routedCount;
    private int liveScrapeChains;
    private Autoscaler autoscaler;
    private DecisionTracer tracer;
    private Dispatch dispatch;

    /**
     * Replaces the routing step: P/D disaggregation decides per request where its prefill and its
     * decode run, each routed over its own pool ({@code io.servesim.disagg}).
     */
    public interface Dispatch {
        /** The admitted {@code r} is to be routed now. */
        void dispatch(Request r, long nowUs);
    }

    public ControlPlane(ClusterConfig config, AdmissionPolicy admission, PriorityPolicy priority, RoutingPolicy routing,
                        Engine[] engines, ClusterView view, EventQueue events, ClusterObserver observer) {
        this.config = config;
        this.admission = admission;
        this.priority = priority;
        this.routing = routing;
        this.engines = engines;
        this.view = view;
        this.events = events;
        this.observer = observer;
        this.pullLatencyUs = view.onDemandLatencyUs(routing.signalsRead());
        this.routedCount = new long[engines.length];
    }

    /**
     * Turns on decision tracing ({@code options.on()} must hold): every admission, priority, routing
     * and preemption decision, and the autoscaler's scale actions, are reported to {@code sink}, the
     * policies named by their template names.
     */
    public void traceDecisions(DecisionSink sink, TraceOptions options, String admissionName, String priorityName,
                               String routingName, String schedulerName, String autoscaleName) {
        if (!options.on()) {
            throw new IllegalArgumentException("trace level none records nothing; do not attach a sink");
        }
        this.tracer = new DecisionTracer(sink, options,
                new DecisionTracer.Names(admissionName, priorityName, routingName, schedulerName, autoscaleName), view, routing);
        if (autoscaler != null) {
            autoscaler.traceWith(tracer);
        }
    }

    /** Admitted requests go to {@code d} instead of the routing policy over the whole cluster. */
    public void dispatchWith(Dispatch d) {
        this.dispatch = d;
    }

    /** Records a pool routing decision made outside {@link #route} (P/D), when decisions are traced. */
    public void traceRouting(Request r, ClusterView poolView, RoutingPolicy policy, String policyName, int position,
                             long nowUs) {
        if (tracer != null) {
            tracer.routing(r, position, poolView.id(position), "", nowUs, poolView, policy, policyName);
        }
    }

    /** Records a P/D decision ({@code remote} or {@code local}), when decisions are traced. */
    public void traceDisaggregation(Request r, String decider, String outcome, String reason, int uncachedTokens,
                                    long nowUs) {
        if (tracer != null) {
            tracer.disaggregation(r, decider, outcome, reason, uncachedTokens, nowUs);
        }
    }

    /** Replicas come and go under {@code a}: its pending events are not work that keeps scrapes going. */
    public void autoscaleWith(Autoscaler a) {
        this.autoscaler = a;
    }

    /** Recurring scrape chains alive (the autoscaler's check does not count them as work). */
    public int liveScrapeChains() {
        return liveScrapeChains;
    }

    /** Schedules the first scrape of every periodic signal group. */
    public void start() {
        for (long interval : view.scrapeIntervals()) {
            view.scrape(interval);
            events.schedule(interval, EventKind.SNAPSHOT_REFRESH, -1, interval);
            liveScrapeChains++;
        }
    }

    /** CLUSTER_ARRIVAL. */
    public void onClusterArrival(Request r, long nowUs) {
        observer.onInjected(r);
        if (config.admissionLatencyUs() > 0) {
            events.schedule(nowUs + config.admissionLatencyUs(), EventKind.ADMISSION, -1, r);
        } else {
            admit(r, nowUs);
        }
    }

    /** ADMISSION: the decision after the admission latency, or a retry after a DELAY. */
    public void admit(Request r, long nowUs) {
        AdmissionDecision d = admission.decide(r, nowUs);
        if (tracer != null) {
            tracer.admission(r, d, nowUs);
        }
        switch (d.kind()) {
            case ADMIT -> {
                r.assignPriority(priority.rankKey(r));
                if (tracer != null) {
                    tracer.priority(r, nowUs);
                }
                if (config.routingLatencyUs() > 0) {
                    events.schedule(nowUs + config.routingLatencyUs(), EventKind.ROUTING, -1, r);
                } else {
                    route(r, nowUs);
                }
            }
            case REJECT -> {
                r.reject(d.reason());
                observer.onRejected(r, d.reason(), nowUs);
            }
            case DELAY -> {
                observer.onDelayed(r, d.delayUs());
                events.schedule(nowUs + d.delayUs(), EventKind.ADMISSION, -1, r);
            }
        }
    }

    /** ROUTING: pick the instance now; the request reaches it after any on-demand pull latency. */
    public void route(Request r, long nowUs) {
        route(r, nowUs, "");
    }

    /**
     * A request routed to replica {@code fromId} must go elsewhere (a drain moved it, or it reached a
     * replica evacuating its queue): routed again, it counts once in {@link #routedCounts}, at the
     * replica it goes to now; its trace record says where it came from.
     */
    public void reroute(int fromId, Request r, long nowUs) {
        routedCount[fromId]--;
        route(r, nowUs, "drained from instance " + fromId);
    }

    private void route(Request r, long nowUs, String reason) {
        if (dispatch != null) {
            dispatch.dispatch(r, nowUs);
            return;
        }
        int chosen = routing.route(r, view, nowUs);
        if (chosen < 0 || chosen >= view.instances()) {
            throw new IllegalStateException("routing policy chose instance " + chosen + " of " + view.instances());
        }
        int target = view.id(chosen);
        routedCount[target]++;
        if (tracer != null) {
            tracer.routing(r, chosen, target, reason, nowUs);
        }
        if (pullLatencyUs > 0) {
            if (autoscaler != null) {
                autoscaler.fleet().inbound(target);
            }
            events.schedule(nowUs + pullLatencyUs, EventKind.ARRIVAL, target, r);
        } else {
            engines[target].onArrival(r, nowUs);
        }
    }

    /** An instance preempted {@code victim} (reported by the engine through the run). */
    public void onPreempted(Request victim, int instance, long nowUs) {
        if (tracer != null) {
            tracer.preemption(victim, instance, nowUs);
        }
    }

    /** SNAPSHOT_REFRESH: scrape, and keep scraping while anything else is pending. */
    public void onScrape(long intervalUs, long nowUs) {
        view.scrape(intervalUs);
        // each other live chain has exactly one pending scrape; anything beyond (but the autoscaler's
        // own check and lifecycle events) is real work
        int background = autoscaler == null ? 0 : autoscaler.backgroundEvents();
        if (events.size() - background > liveScrapeChains - 1) {
            events.schedule(nowUs + intervalUs, EventKind.SNAPSHOT_REFRESH, -1, intervalUs);
        } else {
            liveScrapeChains--;
        }
    }

    /** A request left its instance: quota policies release it; recent-latency signals update. */
    public void onLeft(Request r, long nowUs) {
        admission.onLeft(r, nowUs);
        if (r.state() == Request.State.COMPLETED) {
            long ttft = r.firstTokenUs() - r.arrivalUs();
            int out = r.generatedTokens();
            double tpot = out > 1 ? (double) (r.completionUs() - r.firstTokenUs()) / (out - 1) : 0;
            view.onCompleted(r.instanceId(), ttft, tpot);
        }
    }

    /** Counts a request routed to engine {@code target} outside {@link #route} (P/D pools). */
    public void countRouted(int target) {
        routedCount[target]++;
    }

    /**
     * Requests routed to each instance id so far, each counted once at the instance it was last
     * routed to (a drain's re-route moves its count; {@code ScaleCounters.rerouted} counts the moves).
     */
    public long[] routedCounts() {
        return routedCount.clone();
    }

    public ClusterView view() {
        return view;
    }
}
