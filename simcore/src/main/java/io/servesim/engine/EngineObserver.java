package io.servesim.engine;

import io.servesim.latency.StepShape;

/**
 * Hooks that keep metrics and tracing out of the engine (CloudSim Plus {@code EventListener}).
 * Called synchronously on the simulation thread; implementations must not mutate the engine.
 */
public interface EngineObserver {
    /** {@code r} entered the running batch for the first time. */
    default void onFirstScheduled(Engine engine, Request r, long nowUs) {
    }

    /** {@code r} was evicted from the running batch (recompute preemption). */
    default void onPreempted(Engine engine, Request r, long nowUs) {
    }

    /** A step ran: {@code shape} is what it computed, from {@code nowUs} for {@code stepTimeUs}. */
    default void onStep(Engine engine, long nowUs, long stepTimeUs, StepShape shape) {
    }

    /** {@code count} output tokens (after each request's first) with inter-token latency {@code itlUs} as the client sees it. */
    default void onInterTokenLatency(long itlUs, int count) {
    }

    /** {@code r} is done at this instance: completed or dropped (see {@link Request#state()}). */
    default void onLeft(Engine engine, Request r, long nowUs) {
    }
}
