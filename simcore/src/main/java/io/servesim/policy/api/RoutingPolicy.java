package io.servesim.policy.api;

/**
 * A routing policy as code ({@code policies.routing: {name: code, params: {source: FILE.java}}}): picks the instance
 * for each admitted request (BLIS {@code sim/routing.go}; llm-d / Dynamo routers). Called once per request, on the
 * hot path.
 */
public interface RoutingPolicy {
    /**
     * The position, in {@code 0 .. instances.count() - 1}, of the instance {@code request} goes to.
     *
     * @param request   the request to place
     * @param instances the candidate instances as the control plane sees them now
     * @param nowUs     simulated time, microseconds
     */
    int route(RequestView request, Instances instances, long nowUs);
}
