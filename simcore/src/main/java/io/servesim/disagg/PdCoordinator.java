package io.servesim.disagg;

import io.servesim.cluster.ClusterView;
import io.servesim.cluster.ControlPlane;
import io.servesim.cluster.RoutingPolicy;
import io.servesim.engine.DropReason;
import io.servesim.engine.Engine;
import io.servesim.engine.Request;
import io.servesim.kernel.EventKind;
import io.servesim.kernel.EventQueue;
import it.unimi.dsi.fastutil.longs.Long2ObjectOpenHashMap;
import java.util.ArrayDeque;
import java.util.function.Consumer;

/**
 * Routes admitted requests over the two pools of a P/D deployment and moves their KV, after the Dynamo
 * mocker's disaggregated harness ({@code lib/mocker/src/replay/offline/disagg.rs}) and DistServe:
 * <ol>
 *   <li>a request the decode pool refuses ({@link io.servesim.engine.EngineConfig#refuses}: prompt + output budget
 *       beyond its {@code max_model_len} or KV capacity) goes to the decode pool at once and is dropped there with
 *       that reason, before any prefill. vLLM's P/D proxy validates nothing itself: the prefill instance accepts
 *       the {@code max_tokens=1} request and the decode instance rejects it only after the prefill GPU time was
 *       spent; the fix SGLang's PD router takes (sgl-project/sglang#31664) is to check a request against both
 *       workers' limits before dispatching it, which is what this does (the prefill pool's own limit is checked
 *       by its instance at enqueue, also before any GPU time);</li>
 *   <li>the {@link PdDecider} picks remote or local prefill; local requests go to the decode pool as
 *       aggregated ones (decode routing);</li>
 *   <li>remote: the prefill router (the run's {@code policies.routing}, e.g. {@code kv-router} or
 *       {@code prefix-affinity}, over the prefill pool) picks a prefill instance, which runs the prompt
 *       plus the first token as a one-token request ({@link Request#prefillStage()});</li>
 *   <li>PREFILL_DONE: the decode router ({@code deployment.pd.decode_routing}, default least-loaded; overlap-blind:
 *       the Dynamo mocker's decode router disables overlap scoring) picks a decode instance, which must reserve the
 *       blocks the KV lands in;
 *       if it cannot, the transfer waits in that instance's queue (FIFO) and is retried before each
 *       of its steps and whenever a request leaves it;</li>
 *   <li>the bytes move on their {@link KvLink}, sharing its bandwidth; after the link's latency the KV
 *       has arrived (KV_RECEIVED): the prefill instance frees its copy (blocks with a prefix hash stay
 *       cached there), the decode instance owns the blocks and queues the request for its next token.</li>
 * </ol>
 * TTFT is the prefill's (queueing, prefill, first token); the second token follows transfer, decode
 * queueing and a decode step. Decode instances' engine ids follow the prefill ones.
 */
public final class PdCoordinator implements ControlPlane.Dispatch {
    private final PdSetup setup;
    private final Engine[] engines;
    private final ClusterView prefillView;
    private final ClusterView decodeView;
    private final RoutingPolicy prefillRouter;
    private final String prefillRouterName;
    private final RoutingPolicy decodeRouter;
    private final String decodeRouterName;
    private final EventQueue events;
    private final ControlPlane control;
    private final Long2ObjectOpenHashMap<Transfer> byRequest = new Long2ObjectOpenHashMap<>();
    private final ArrayDeque<Transfer>[] blockWaits;
    private final KvLink[] links;
    private final double bytesPerUs;
    private final PdStats stats = new PdStats();
    private final Consumer<Transfer> bytesDone = this::bytesDone;
    private final int prefillCount;
    private long linkNowUs;
    /** Blocks held by prefill stages whose KV is still theirs (ownership check). */
    private long prefillOwnedBlocks;

    /**
     * @param engines all engines: the prefill pool's, then the decode pool's
     * @param view    the cluster's view of all of them (pool views are taken from it)
     */
    @SuppressWarnings("unchecked")
    public PdCoordinator(PdSetup setup, Engine[] engines, ClusterView view, RoutingPolicy prefillRouter,
                         String prefillRouterName, RoutingPolicy decodeRouter, String decodeRouterName, EventQueue events,
                         ControlPlane control) {
        this.setup = setup;
        this.engines = engines;
        this.prefillCount = setup.prefill().replicas();
        this.prefillView = view.pool(0, prefillCount);
        this.decodeView = view.pool(prefillCount, setup.decode().replicas());
        this.prefillRouter = prefillRouter;
        this.prefillRouterName = prefillRouterName;
        this.decodeRouter = decodeRouter;
        this.decodeRouterName = decodeRouterName;
        this.events = events;
        this.control = control;
        this.blockWaits = new ArrayDeque[setup.decode().replicas()];
        for (int i = 0; i < blockWaits.length; i++) {
            blockWaits[i] = new ArrayDeque<>();
        }
        this.links = new KvLink[setup.transfer().topology() == Topology.SHARED ? 1 : prefillCount * blockWaits.length];
        this.bytesPerUs = setup.transfer().bytesPerUs();
    }

    public PdStats stats() {
        return stats;
    }

    public PdSetup setup() {
        return setup;
    }

    /** Whether engine {@code id} belongs to the decode pool. */
    public boolean isDecode(int id) {
        return id >= prefillCount;
    }

    @Override
    public void dispatch(Request r, long nowUs) {
        PdDecider decider = setup.decider();
        if (decider == PdDecider.NEVER) {
            control.traceDisaggregation(r, decider.configName(), "local", "never disaggregates", r.inputTokens(), nowUs);
            routeLocal(r, nowUs);
            return;
        }
        DropReason refused = setup.decode().engine().refuses(r.inputTokens(), r.maxOutputTokens());
        if (refused != null) {
            // every request ends on the decode pool: one it refuses is dropped there now, before any prefill GPU time
            control.traceDisaggregation(r, decider.configName(), "local", "the decode pool refuses it ("
                    + refused.name().toLowerCase(java.util.Locale.ROOT) + "): dropped there before prefill", r.inputTokens(), nowUs);
            routeLocal(r, nowUs);
            return;
        }
        int pos = prefillRouter.route(r, prefillView, nowUs);
        if (pos < 0 || pos >= prefillView.instances()) {
            throw new IllegalStateException("prefill routing chose instance " + pos + " of " + prefillView.instances());
        }
        int uncached = r.inputTokens();
        if (decider == PdDecider.PREFIX_THRESHOLD) {
            uncached -= prefillView.prefixOverlapBlocks(r)[pos] * prefillView.blockSizeTokens();
        }
        if (!decider.remote(uncached, setup.thresholdTokens())) {
            control.traceDisaggregation(r, decider.configName(), "local", uncached + " uncached prompt tokens <= "
                    + setup.thresholdTokens(), uncached, nowUs);
            routeLocal(r, nowUs);
            return;
        }
        control.traceDisaggregation(r, decider.configName(), "remote", decider == PdDecider.ALWAYS ? "always disaggregates"
                : uncached + " uncached prompt tokens > " + setup.thresholdTokens(), uncached, nowUs);
        control.traceRouting(r, prefillView, prefillRouter, prefillRouterName, pos, nowUs);
        int p = prefillView.id(pos);
        Request stage = r.prefillStage();
        byRequest.put(r.id(), new Transfer(r, stage, p));
        control.countRouted(p);
        stats.remote++;
        engines[p].onArrival(stage, nowUs);
    }

    /** The decode pool serves {@code r} whole, as an aggregated request. */
    private void routeLocal(Request r, long nowUs) {
        int d = routeDecode(r, nowUs);
        stats.local++;
        engines[d].onArrival(r, nowUs);
    }

    private int routeDecode(Request r, long nowUs) {
        int pos = decodeRouter.route(r, decodeView, nowUs);
        if (pos < 0 || pos >= decodeView.instances()) {
            throw new IllegalStateException("decode routing chose instance " + pos + " of " + decodeView.instances());
        }
        control.traceRouting(r, decodeView, decodeRouter, decodeRouterName, pos, nowUs);
        int d = decodeView.id(pos);
        control.countRouted(d);
        return d;
    }

    /** PREFILL_DONE: the prefill stage finished on engine {@code p}; the KV handoff to a decode instance starts. */
    public void onPrefillDone(int p, Request stage, long nowUs) {
        Transfer t = byRequest.get(stage.id());
        Request r = t.request;
        engines[p].handOff(stage);
        prefillOwnedBlocks += stage.heldBlocks();
        stats.queueingUs[0].add(stage.firstScheduleUs() - stage.enqueueUs());
        control.view().onCompleted(p, stage.firstTokenUs() - stage.arrivalUs(), 0);
        r.continueAfterPrefill(stage);
        t.prefillDoneUs = nowUs;
        int d = routeDecode(r, nowUs);
        t.decodeId = d;
        t.streamBytes = (double) r.inputTokens() * setup.streamBytesPerToken();
        t.remainingBytes = t.streamBytes;
        t.bytes = (long) r.inputTokens() * setup.streamBytesPerToken() * setup.streams();
        t.aloneUs = (long) Math.ceil(t.streamBytes / bytesPerUs - 1e-9);
        if (!engines[d].acceptHandoff(r, nowUs)) {
            release(t); // the decode pool can never serve it: dropped there
        } else {
            ArrayDeque<Transfer> waiting = blockWaits[d - prefillCount];
            if (waiting.isEmpty() && engines[d].reserveHandoff(r)) {
                start(t, nowUs);
            } else {
                t.waitedForBlocks = true;
                stats.blockWaits++;
                waiting.addLast(t);
            }
        }
        assert PdInvariants.check(this, t);
    }

    /** Before a step of engine {@code id}, and when a request left it: waiting transfers reserve freed blocks, in order. */
    public void retryBlockWaits(int id, long nowUs) {
        if (id < prefillCount) {
            return;
        }
        ArrayDeque<Transfer> waiting = blockWaits[id - prefillCount];
        while (!waiting.isEmpty() && engines[id].reserveHandoff(waiting.peekFirst().request)) {
            start(waiting.pollFirst(), nowUs);
        }
    }

    private void start(Transfer t, long nowUs) {
        t.startUs = nowUs;
        stats.blockWaitUs.add(t.allocWaitUs());
        KvLink link = link(t);
        link.add(t, nowUs);
        schedule(link);
    }

    private KvLink link(Transfer t) {
        int k = links.length == 1 ? 0 : t.prefillId * blockWaits.length + (t.decodeId - prefillCount);
        if (links[k] == null) {
            links[k] = new KvLink(bytesPerUs);
        }
        return links[k];
    }

    private void schedule(KvLink link) {
        if (link.size() > 0) {
            events.schedule(link.nextDoneUs(), EventKind.KV_TRANSFER, link.version(), link);
        }
    }

    /** KV_TRANSFER: a transfer on {@code linkRef} (a link of this coordinator) may have finished (ignored when the link changed since). */
    public void onLinkEvent(Object linkRef, int version, long nowUs) {
        KvLink link = (KvLink) linkRef;
        if (version != link.version()) {
            return;
        }
        link.advance(nowUs);
        linkNowUs = nowUs;
        link.takeDone(bytesDone);
        schedule(link);
    }

    private void bytesDone(Transfer t) {
        t.bytesDoneUs = linkNowUs;
        long latency = setup.transfer().latencyUs();
        if (latency > 0) {
            events.schedule(linkNowUs + latency, EventKind.KV_RECEIVED, t.decodeId, t.request);
        } else {
            arrive(t, linkNowUs);
        }
    }

    /** KV_RECEIVED: the KV of {@code r} arrived at its decode instance after the link's latency. */
    public void onKvReceived(Request r, long nowUs) {
        arrive(byRequest.get(r.id()), nowUs);
    }

    /** Ownership moves: the prefill instance frees its copy, the decode instance queues the request. */
    private void arrive(Transfer t, long nowUs) {
        if (t.owner != Transfer.Owner.PREFILL) {
            throw new IllegalStateException("KV of request " + t.request.id() + " arrived while owned by " + t.owner);
        }
        t.endUs = nowUs;
        release(t);
        t.owner = Transfer.Owner.DECODE;
        engines[t.decodeId].onKvReceived(t.request, nowUs);
        stats.transfers++;
        stats.transferBytes += t.bytes;
        stats.transferUs.add(t.transferUs());
        stats.bandwidthWaitUs.add(t.bandwidthWaitUs());
        assert PdInvariants.check(this, t);
    }

    /** The prefill instance frees the stage's copy (its hashed blocks stay cached there). */
    private void release(Transfer t) {
        prefillOwnedBlocks -= t.prefillStage.heldBlocks();
        engines[t.prefillId].releaseHandedOff(t.prefillStage);
        t.owner = Transfer.Owner.RELEASED;
    }

    /**
     * The request a leaving one stands for: a prefill stage dropped by its prefill instance (never fits
     * there) stands for its request, which is dropped with it; any other request is itself.
     */
    public Request original(Request r) {
        if (!r.prefillOnly()) {
            return r;
        }
        Transfer t = byRequest.get(r.id());
        t.request.droppedWith(r);
        t.owner = Transfer.Owner.RELEASED;
        return t.request;
    }

    /** REQUEST_LEFT of {@code r} (an original request) at engine {@code id}: its handoff ends; freed blocks may start transfers. */
    public void onLeft(int id, Request r, long nowUs) {
        Transfer t = byRequest.remove(r.id());
        if (t != null) {
            t.owner = Transfer.Owner.RELEASED;
        }
        if (r.state() == Request.State.COMPLETED && isDecode(id)) {
            long queued = r.kvAdmitUs() >= 0 && t != null ? r.kvAdmitUs() - t.endUs : r.firstScheduleUs() - r.enqueueUs();
            stats.queueingUs[1].add(queued);
        }
        retryBlockWaits(id, nowUs);
    }

    /** The handoff of request {@code requestId}, or null (a local request, or gone). */
    public HandoffView handoff(long requestId) {
        Transfer t = byRequest.get(requestId);
        return t == null ? null : new HandoffView(t.prefillId, t.decodeId, t.startUs, t.endUs, t.bandwidthWaitUs(),
                t.startUs < 0 ? -1 : t.allocWaitUs());
    }

    /** Engine {@code id} ran a step of {@code stepUs} at KV utilization {@code kvUtilization}. */
    public void onStep(int id, long stepUs, double kvUtilization) {
        int pool = id < prefillCount ? 0 : 1;
        stats.busyUs[pool] += stepUs;
        stats.kvBusyWeighted[pool] += kvUtilization * stepUs;
        stats.steps[pool]++;
    }

    /** At the horizon: every request whose handoff has not ended (in prefill, waiting for blocks, moving, or decoding). */
    public void forEachUnfinished(Consumer<Request> sink) {
        byRequest.values().forEach(t -> sink.accept(t.request));
    }

    // ---- read by PdInvariants ----
    Engine[] engines() { return engines; }
    int prefillCount() { return prefillCount; }
    long prefillOwnedBlocks() { return prefillOwnedBlocks; }
}
