package io.servesim.sweep;

/**
 * Which optional datasets a sweep writes. {@code cells/} and {@code errors/} are always written;
 * {@code requests/} (one row per simulated request) and {@code sessions/} (one row per agentic
 * session) are on by default; {@code decisions/} (one row per routing decision,
 * {@code io.servesim.decisions}) is opt-in because it is as large as requests; so is {@code scaling/}
 * (the replica timeline, {@code schemas/scaling.avsc}: small, but only autoscaling studies read it).
 *
 * @param requests  write the per-request dataset
 * @param sessions  write the agentic-session dataset
 * @param decisions write the routing-decision dataset
 * @param scaling   write the replica-timeline dataset
 */
public record SweepOutputs(boolean requests, boolean sessions, boolean decisions, boolean scaling)
        implements java.io.Serializable {
    private static final long serialVersionUID = 1L;

    /** Whether {@code dataset} is written under these settings. */
    public boolean writes(Dataset dataset) {
        return switch (dataset) {
            case CELLS, ERRORS -> true;
            case REQUESTS -> requests;
            case SESSIONS -> sessions;
            case DECISIONS -> decisions;
            case SCALING -> scaling;
        };
    }
}
