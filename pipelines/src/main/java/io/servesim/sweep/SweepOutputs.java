package io.servesim.sweep;

import io.servesim.decisions.TraceOptions;

/**
 * Which optional datasets a sweep writes. {@code cells/} and {@code errors/} are always written;
 * {@code requests/} (one row per simulated request) and {@code sessions/} (one row per agentic
 * session) are on by default; {@code decisions/} (one row per policy decision,
 * {@code io.servesim.decisions}) is opt-in ({@code outputs.decisions: decisions | detailed},
 * {@code outputs.counterfactual_k}) because it is larger than requests; so is {@code scaling/}
 * (the replica timeline, {@code schemas/scaling.avsc}: small, but only autoscaling studies read it).
 *
 * @param requests  write the per-request dataset
 * @param sessions  write the agentic-session dataset
 * @param trace     the decision trace level and counterfactual K; {@link TraceOptions#OFF}: no {@code decisions/}
 * @param scaling   write the replica-timeline dataset
 */
public record SweepOutputs(boolean requests, boolean sessions, TraceOptions trace, boolean scaling)
        implements java.io.Serializable {
    private static final long serialVersionUID = 3L;

    /** Whether {@code dataset} is written under these settings. */
    public boolean writes(Dataset dataset) {
        return switch (dataset) {
            case CELLS, ERRORS -> true;
            case REQUESTS -> requests;
            case SESSIONS -> sessions;
            case DECISIONS -> trace.on();
            case SCALING -> scaling;
        };
    }
}
