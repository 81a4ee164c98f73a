package io.servesim.plan;

/**
 * One run a search asks for: a candidate at an arrival rate on a trace of a number of requests (the first requests of
 * the same seeded trace, whatever their number: a rate scales its arrival times and keeps its requests). It becomes one
 * cell of a round ({@link PlanRounds}).
 *
 * @param candidate the candidate's index
 * @param rateRps   the arrival rate, requests per second ({@code workload.aggregate_rate})
 * @param requests  requests in the trace ({@code workload.num_requests})
 * @param stage     why it runs (the first stage that asked, when several do)
 */
public record Probe(int candidate, double rateRps, int requests, Stage stage) {
    /** What identifies the run: its result answers any stage that asks for it. */
    public Key key() {
        return new Key(candidate, rateRps, requests);
    }

    /**
     * A run's identity.
     *
     * @param candidate the candidate's index
     * @param rateRps   the arrival rate, requests per second
     * @param requests  requests in the trace
     */
    public record Key(int candidate, double rateRps, int requests) {
    }
}
