package io.servesim.metrics;

/** Receives one record per agentic session as it ends (or at the horizon); the kernel keeps none of them. */
@FunctionalInterface
public interface SessionSink {
    /** Discards records (summary-only runs). */
    SessionSink NONE = s -> { };

    void accept(SessionRecord record);
}
