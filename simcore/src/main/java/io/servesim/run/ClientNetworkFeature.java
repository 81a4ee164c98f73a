package io.servesim.run;

import io.servesim.engine.Request;
import java.util.function.IntToLongFunction;

/**
 * The serving front end's client network ({@code frontend.network_rtt_us}) for requests a trace replays (a generated
 * workload's clients without a network of their own get it as theirs, {@code RunPlan}, so their sends follow the arrival
 * process and sessions' follow-ups pay both legs): the round trip split into the request's leg (half, rounded down) and the response's (the rest), as
 * {@code workload.NetworkSpec} splits a client's own.
 */
final class ClientNetworkFeature implements RunFeature {
    private final long rttUs;
    private final IntToLongFunction responseLeg;

    ClientNetworkFeature(long rttUs) {
        this.rttUs = rttUs;
        this.responseLeg = chunk -> rttUs - rttUs / 2;
    }

    @Override
    public void onClusterArrival(Request r) {
        if (!r.hasClientNetwork()) {
            r.setClientNetwork(r.arrivalUs() - rttUs / 2, responseLeg);
        }
    }
}
