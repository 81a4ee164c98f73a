package io.servesim.run;

import io.servesim.disagg.PdCoordinator;
import io.servesim.engine.Request;
import io.servesim.kernel.EventKind;
import it.unimi.dsi.fastutil.longs.LongOpenHashSet;
import java.util.List;

/**
 * P/D disaggregation in the event loop ({@code deployment.architecture: pd}): the handoff's events (a prefill stage
 * done, the KV transfer's link events, the KV received at the decode instance), the retry of decode allocations that
 * waited for blocks before each step, and a request leaving as the request its stages stand for.
 */
final class PdFeature implements RunFeature {
    private final PdCoordinator pd;

    PdFeature(PdCoordinator pd) {
        this.pd = pd;
    }

    @Override
    public void register(EventHandlers handlers) {
        handlers.on(EventKind.PREFILL_DONE, (target, ref, now) -> pd.onPrefillDone(target, (Request) ref, now));
        handlers.on(EventKind.KV_TRANSFER, (target, ref, now) -> pd.onLinkEvent(ref, target, now));
        handlers.on(EventKind.KV_RECEIVED, (target, ref, now) -> pd.onKvReceived((Request) ref, now));
    }

    @Override
    public void beforeStep(int instance, long nowUs) {
        pd.retryBlockWaits(instance, nowUs);
    }

    @Override
    public Request leftEngine(int instance, Request r, long nowUs) {
        Request original = pd.original(r);
        pd.onLeft(instance, original, nowUs);
        return original;
    }

    /** A disaggregated request is reported once, whichever stage it is in (prefill stages stand for it). */
    @Override
    public void unfinished(List<Request> inSystem) {
        pd.forEachUnfinished(inSystem::add);
        LongOpenHashSet seen = new LongOpenHashSet();
        inSystem.removeIf(r -> r.prefillOnly() || !seen.add(r.id()));
    }
}
