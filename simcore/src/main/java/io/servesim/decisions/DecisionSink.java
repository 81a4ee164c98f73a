package io.servesim.decisions;

/** Receives a traced run's decisions as they are made (never called when the trace level is none). */
@FunctionalInterface
public interface DecisionSink {
    void accept(DecisionRecord record);
}
