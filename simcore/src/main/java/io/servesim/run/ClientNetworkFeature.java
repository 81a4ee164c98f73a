package io.servesim.run;

import io.servesim.engine.Request;
import java.util.function.IntToLongFunction;

/**
 * The serving front end's client network for requests whose workload gives them none ({@code frontend.network_rtt_us}):
 * the round trip split into the request's leg (half, rounded down) and the response's (the rest), as
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
