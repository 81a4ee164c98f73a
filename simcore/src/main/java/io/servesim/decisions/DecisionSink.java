package io.servesim.decisions;

/** Receives routing decisions as they are made (only when decision tracing is on). */
@FunctionalInterface
public interface DecisionSink {
    void accept(DecisionRecord record);
}
