package io.servesim.cli;

import io.servesim.latency.LatencyKind;
import java.util.Iterator;

/**
 * The {@code --latency-model} names for picocli's {@code completionCandidates}, so help text
 * ({@code ${COMPLETION-CANDIDATES}}) lists them from {@link LatencyKind} rather than by hand.
 */
final class LatencyKindCandidates {
    private LatencyKindCandidates() {
    }

    /** Every kind ({@code run}, {@code sweep}, {@code validate}: {@code deployment.latency_model}). */
    static final class All implements Iterable<String> {
        @Override
        public Iterator<String> iterator() {
            return LatencyKind.names().iterator();
        }
    }

    /** The kinds that name one model ({@code replay-real}: a replay compares one model to the run). */
    static final class Concrete implements Iterable<String> {
        @Override
        public Iterator<String> iterator() {
            return LatencyKind.concreteNames().iterator();
        }
    }
}
