package io.servesim.policy.api;

/**
 * A request as a policy sees it at decision time: what a serving system knows when the request arrives (its prompt
 * length, its client's output budget, who sent it and how urgent it is), not how many tokens it will generate.
 * Valid during the call that receives it: keep {@link #id()} rather than the view.
 */
public interface RequestView {
    /** The request's id, unique in a run. */
    long id();

    /** Arrival at the cluster, in simulated microseconds. */
    long arrivalUs();

    /** Prompt tokens. */
    int inputTokens();

    /** The client's output budget ({@code max_tokens}); 0 when none was given. */
    int maxOutputTokens();

    /** The workload client that sent it. */
    String clientId();

    /** Its tenant (for quotas and fairness). */
    String tenantId();

    /** Its SLO class (e.g. realtime, interactive, batch). */
    String sloClass();

    /** Its conversation or agent session, or -1 when it belongs to none. */
    long sessionId();

    /** Its turn within the session (0 for the first or a sessionless request). */
    int turnIndex();

    /** The workload's own priority of the request ({@code priority_distribution}; 0 by default). */
    double priority();

    /**
     * The priority policy's rank key, assigned at admission (higher: more urgent); 0 before the request was
     * admitted. What a scheduling policy orders by to serve urgent requests first.
     */
    double priorityRank();

    /** Whether the client streams the response. */
    boolean streaming();
}
