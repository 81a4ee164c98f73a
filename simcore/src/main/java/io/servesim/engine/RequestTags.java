package io.servesim.engine;

/**
 * Who sent a request: client, tenant, SLO class and session. Shared by all requests of a client
 * (one instance per client/session, not per request) so records cost no string copies.
 *
 * @param clientId    workload client that generated the request
 * @param tenantId    tenant for fairness and quotas
 * @param sloClass    SLO class name (e.g. realtime, interactive, batch) used by priority and SLO attainment
 * @param sessionId   conversation/agent session id, or -1 when the request is not part of a session
 * @param turnIndex   turn within the session (0 for the first or for sessionless requests)
 */
public record RequestTags(String clientId, String tenantId, String sloClass, long sessionId, int turnIndex) {
    /** Tags for requests with no client metadata. */
    public static final RequestTags DEFAULT = new RequestTags("default", "default", "standard", -1, 0);
}
