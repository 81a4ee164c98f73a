package io.servesim.run;

import io.servesim.engine.Request;
import java.util.List;

/**
 * A feature of a run that takes part in the event loop without the loop naming it: P/D disaggregation
 * ({@link PdFeature}), autoscaling ({@link AutoscalingFeature}), the serving front end's default client network
 * ({@link ClientNetworkFeature}). The loop ({@link Simulation}) runs the core of each event (the control plane's and
 * the engines' part) and calls every feature's hook at its fixed place around it, in the order the features were
 * given; an event kind of a feature's own goes to the handler it registered ({@link #register}). Each hook does
 * nothing unless a feature overrides it, so a run without features pays for none.
 */
interface RunFeature {
    /** Puts a handler into {@code handlers} for each event kind this feature schedules and handles itself. */
    default void register(EventHandlers handlers) {
    }

    /** At the start of the run, after the first arrival is scheduled: the feature's own recurring events. */
    default void start() {
    }

    /** Events this feature keeps pending that do not hold the run open (a periodic check). */
    default int backgroundEvents() {
        return 0;
    }

    /** A request reaching the cluster (CLUSTER_ARRIVAL), before the control plane decides on it. */
    default void onClusterArrival(Request r) {
    }

    /** An ARRIVAL at {@code instance}: true when this feature took the request instead of the engine. */
    default boolean tookArrival(int instance, Request r, long nowUs) {
        return false;
    }

    /** A QUEUED at {@code instance}: true when this feature took the request instead of the engine's wait queue. */
    default boolean tookQueued(int instance, Request r, long nowUs) {
        return false;
    }

    /** Before {@code instance}'s engine runs a STEP. */
    default void beforeStep(int instance, long nowUs) {
    }

    /** After {@code instance}'s engine ran a STEP. */
    default void afterStep(int instance, long nowUs) {
    }

    /**
     * {@code r} left {@code instance}'s engine (REQUEST_LEFT), before the control plane learns of it: the request as the
     * rest of the run knows it ({@code r} itself, or the request a P/D stage stands for).
     */
    default Request leftEngine(int instance, Request r, long nowUs) {
        return r;
    }

    /** After the control plane learnt that {@code r} left {@code instance}, before its source does. */
    default void afterLeft(int instance, Request r, long nowUs) {
    }

    /**
     * At the horizon: adds the requests this feature holds to {@code inSystem} (those the event queue and the engines
     * hold are in it already) and removes what it must not report (a P/D stage standing for a request reported once).
     */
    default void unfinished(List<Request> inSystem) {
    }
}
