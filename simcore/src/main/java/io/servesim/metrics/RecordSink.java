package io.servesim.metrics;

/** Receives request records as they finish; the kernel keeps none of them. */
@FunctionalInterface
public interface RecordSink {
    /** Discards records (summary-only runs). */
    RecordSink NONE = r -> { };

    void accept(RequestRecord record);
}
