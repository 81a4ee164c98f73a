package io.servesim.run;

/**
 * A run that passed its {@code max_events}: it stops with this error (exit 1 for {@code run}, an error row for a sweep
 * cell) instead of spinning. The message says when it stopped and what was still in flight.
 */
public final class RunLimitException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    RunLimitException(long maxEvents, long nowUs, long inFlight, long delays, long injected) {
        super(String.format("the run passed max_events (%d events) at simulated time %.1f s with %d requests still in flight,"
                + " so it would not end soon: %s; raise max_events (--max-events) if it is meant to be that long", maxEvents,
                nowUs / 1e6, inFlight, delays > injected
                        ? "the admission policy delayed requests " + delays + " times (" + injected + " requests arrived): one"
                        + " that delays a request every time it is asked never lets it in"
                        : "a rate, bandwidth or latency far from the hardware's can stall a run (check the config)"));
    }
}
