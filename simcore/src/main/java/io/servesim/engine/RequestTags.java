package io.servesim.engine;

/**
 * Who sent a request: client, tenant, SLO class and session, and for an agentic session which
 * workflow step it is. Shared by all requests of a client (one instance per client/session, not
 * per request) so records cost no string copies; an agentic step request has its own.
 *
 * @param clientId      workload client that generated the request
 * @param tenantId      tenant for fairness and quotas
 * @param sloClass      SLO class name (e.g. realtime, interactive, batch) used by priority and SLO attainment
 * @param sessionId     conversation/agent session id, or -1 when the request is not part of a session
 * @param turnIndex     turn within the session (0 for the first or for sessionless requests; for an
 *                      agentic session, the LLM call's ordinal within the session)
 * @param stepId        agentic workflow step id, or null when the request is not an agentic step
 * @param loopIteration loop iteration (0-based) of an agentic step inside {@code loop.over}; -1 otherwise
 * @param fanOutIndex   instance of an agentic step (0 when the step is not fanned out); -1 when not agentic
 */
public record RequestTags(String clientId, String tenantId, String sloClass, long sessionId, int turnIndex,
                          String stepId, int loopIteration, int fanOutIndex) {
    /** Tags for requests with no client metadata. */
    public static final RequestTags DEFAULT = new RequestTags("default", "default", "standard", -1, 0);

    /** Tags of a request that is not an agentic step. */
    public RequestTags(String clientId, String tenantId, String sloClass, long sessionId, int turnIndex) {
        this(clientId, tenantId, sloClass, sessionId, turnIndex, null, -1, -1);
    }
}
