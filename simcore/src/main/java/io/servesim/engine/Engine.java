package io.servesim.engine;

import io.servesim.kernel.EventKind;
import io.servesim.kernel.EventQueue;
import io.servesim.latency.LatencyModel;
import io.servesim.latency.StepShape;
import java.util.function.Consumer;

/**
 * One vLLM-style engine replica driven by the kernel's events. A step has four phases, as BLIS
 * {@code sim/simulator.go} structures vLLM v1's {@code EngineCore.step}:
 * <ol>
 *   <li>{@link BatchFormer#form}: the vLLM v1 two-phase scheduler (continuing requests, then new ones);</li>
 *   <li>execute: the latency model prices the step; computed tokens advance and a token is sampled
 *       for every request whose KV now covers all its tokens;</li>
 *   <li>completions: finished requests free their KV blocks and leave;</li>
 *   <li>schedule the next step while any work remains (work-conserving, INV-8).</li>
 * </ol>
 * Token timing follows BLIS's blackbox semantics: the first token is visible at step end + a2, and
 * every later token one GPU gap + a2 after the previous one (a2 never blocks the GPU). Behind a serving
 * front end ({@link FrontEnd}) a request reaches the wait queue after its ingress, and every token leaves the
 * server its egress after that.
 *
 * <p>With a CPU KV tier ({@link KvOffload}), reloads either lengthen the step that admits the
 * request ({@code kv_reload: step}) or park the request until a {@code KV_LOADED} event
 * ({@code kv_reload: blocking}, {@link #onKvLoaded}).
 *
 * <p>Async scheduling ({@link EngineConfig#asyncScheduling()}): vLLM's engine core with a batch queue of two
 * ({@code EngineCore.step_with_batch_queue} in {@code vllm/v1/engine/core.py}, vllm-project/vllm PR #19970; on by
 * default since PR #27614) schedules step n+1 and queues it on the GPU right after launching step n, and only then
 * blocks on step n's output; the requests that reached the engine core while step n executed are read from its input
 * queue after that, so the first step that can take them is n+2. Here a request queued while a step executes waits
 * in {@link #arrivedDuringStep} and joins the wait queue once the next step has been formed; one queued while the
 * engine is idle, or when the next step would be empty, is taken at once (the scheduler then has nothing queued
 * ahead of it).
 *
 * <p>Speculative decoding ({@link EngineConfig#speculative()}, {@link Speculation}): decoding requests verify draft
 * tokens and may gain several tokens a step; steady decode stretches are then never macro-steps ({@link DecodeStretch}
 * assumes one token per request per step), so every step runs on its own.
 *
 * <p>The SGLang core ({@code engine.kind: sglang}, {@link EngineConfig#isSglang}) swaps two components and keeps the
 * rest: its {@link SglangScheduler} forms the steps in place of the {@link BatchFormer} (no macro-steps, no async
 * scheduling), and its {@link RadixCache} is the prefix cache over the {@link KvCache}'s pages, which a finished
 * request's KV is inserted into instead of freed.
 */
public final class Engine {
    private final int id;
    private final EngineConfig config;
    private final KvCache kv;
    private final LatencyModel latency;
    private final WaitQueue waitQueue;
    private final RunningBatch running;
    /** The vLLM core's batch former (null in the SGLang core, whose macro-step-free steps need none). */
    private final BatchFormer batchFormer;
    /** The multimodal encoder's scheduling and cache (vLLM core), or null when no request carries items. */
    private final EncoderInputs encoder;
    /** The multimodal embeddings' cache (SGLang core), or null when no request carries items. */
    private final SglangEmbeddingCache embeddings;
    /** Forms each step: the vLLM core's {@link BatchFormer} or the SGLang core's {@link SglangScheduler}. */
    private final StepFormer former;
    /** The SGLang core's radix tree over {@link #kv}'s pages, or null in the vLLM core. */
    private final RadixCache radix;
    private final StepShape shape = new StepShape();
    private final EventQueue events;
    private final EngineObserver observer;
    private final long outputProcessingUs;
    private final FrontEnd frontEnd;
    /** The warm-up phase, or null without one; the start of this replica's first step (-1 before it). */
    private final EngineConfig.Warmup warmup;
    private long firstStepUs = -1;
    private boolean stepPending;
    /** Whether the step {@link #formStep} formed last is a steady decode step ({@link DecodeStretch}). */
    private boolean formedSteady;
    /** The data-parallel group this engine steps in lockstep with, or null ({@link #joinLockstep}). */
    private Lockstep lockstep;
    private long busyUntilUs;
    /** Start of the step executing until {@link #busyUntilUs} (-1 before the first). */
    private long stepStartUs = -1;
    /**
     * When vLLM's scheduler decides on the step being formed: its start, or under async scheduling the start of the step
     * before it when that one ends as this one starts (the batch queue formed it while that one executed).
     */
    private long formedAtUs;
    private long enqueueSeq;
    private long steps;
    private long macroSteps;
    private long preemptions;
    private long inFlight;
    /** The routing board this engine keeps its counts in (null: none, {@link #publishTo}). */
    private LoadBoard board;
    private long inFlightPromptBlocks;
    private long headOfLineBlocks;
    /** Blocks held by requests whose blocking reload is in flight. */
    private long parkedBlocks;
    /** P/D: blocks of completed prefill stages kept as the source of their KV transfer. */
    private long handOffBlocks;
    /** P/D, SGLang core: the radix-tree pages those stages' paths lock until their transfer completes. */
    private long handOffTreePages;
    /** P/D: blocks reserved for incoming KV transfers and held by requests waiting here with their KV. */
    private long receivingBlocks;
    private final boolean tiered;
    /** Macro-steps over steady decode stretches, or null when off ({@code engine.macro_steps: false}). */
    private final DecodeStretch stretch;
    private final StepExecution execution;
    /** Speculative decoding, or null when off. */
    private final Speculation speculation;
    /**
     * Async scheduling: requests queued while a step executes, in arrival order; they join the wait queue once the
     * next step is formed. Null without async scheduling.
     */
    private final java.util.ArrayDeque<Request> arrivedDuringStep;
    /** Prompt tokens of {@link #arrivedDuringStep}. */
    private long arrivedPromptTokens;

    /** An engine without a serving front end (requests reach the engine core at arrival). */
    public Engine(int id, EngineConfig config, LatencyModel latency, SchedulingPolicy scheduling,
                  EventQueue events, EngineObserver observer) {
        this(id, config, latency, scheduling, events, observer, FrontEnd.OFF);
    }

    /** An engine behind the serving front end {@code frontEnd} ({@link FrontEnd}: ingress before the wait queue, egress per token). */
    public Engine(int id, EngineConfig config, LatencyModel latency, SchedulingPolicy scheduling,
                  EventQueue events, EngineObserver observer, FrontEnd frontEnd) {
        if (!config.isResolved()) {
            throw new IllegalArgumentException("engine config with max_model_len or total_kv_blocks unresolved: " + config);
        }
        this.id = id;
        this.config = config;
        boolean sglang = config.isSglang();
        this.kv = new KvCache(config.totalKvBlocks(), config.blockSizeTokens(), config.prefixCaching() && !sglang,
                config.kvTiers());
        this.radix = sglang ? new RadixCache(kv, config.prefixCaching()) : null;
        this.tiered = config.kvTiers().enabled();
        this.latency = latency;
        if (sglang && scheduling.order() != null) {
            throw new IllegalArgumentException("the SGLang core orders its wait queue by engine.schedule_policy, not by a"
                    + " scheduling policy");
        }
        this.waitQueue = new WaitQueue(scheduling.order());
        this.speculation = config.speculative().enabled() ? new Speculation(config.speculative(), config.maxModelLen())
                : null;
        this.running = new RunningBatch(Math.min(config.maxNumSeqs(), 1024), config.blockSizeTokens(),
                config.prefixCaching() && !sglang);
        BatchFormer.Listener listener = new BatchFormer.Listener() {
            @Override
            public void preempted(Request r, long nowUs) {
                onPreempted(r, nowUs);
            }

            @Override
            public void admitted(Request r, long nowUs) {
                onAdmitted(r, nowUs);
            }

            @Override
            public void neverFits(Request r, long nowUs) {
                if (handOffBlocks + handOffTreePages + receivingBlocks > 0) {
                    // P/D: blocks held for transfers are not this request's to compete for, and they
                    // come free; it waits at the front as a preempted request does
                    r.computedTokens = 0;
                    r.preemptions++;
                    r.state = Request.State.QUEUED;
                    waitQueue.addFront(r);
                    onPreempted(r, nowUs);
                } else {
                    drop(r, DropReason.NEVER_FITS, nowUs);
                }
            }

            @Override
            public void headOfLineBlocked(Request r, long nowUs) {
                headOfLineBlocks++;
            }

            @Override
            public void reloading(Request r, long readyUs, long nowUs) {
                parkedBlocks += r.heldBlocks();
                events.schedule(Math.max(readyUs, nowUs), EventKind.KV_LOADED, id, r);
            }
        };
        this.encoder = config.encoder() == null || sglang ? null : new EncoderInputs(config.encoder());
        this.embeddings = config.encoder() == null || !sglang ? null
                : new SglangEmbeddingCache(config.encoder().cacheTokens());
        this.batchFormer = sglang ? null : new BatchFormer(config, kv, waitQueue, running, scheduling.order(), speculation,
                encoder, listener);
        this.former = sglang ? new SglangScheduler(id, config, kv, radix, waitQueue, running, embeddings, listener)
                : batchFormer;
        this.events = events;
        this.observer = observer;
        this.outputProcessingUs = latency.outputTokenProcessingUs();
        this.frontEnd = frontEnd;
        this.warmup = config.warmup().enabled() ? config.warmup() : null;
        this.execution = new StepExecution(id, config.maxModelLen(), running, this::releaseKv, this::treePagesOf, events,
                observer, outputProcessingUs, frontEnd.egressUs(), speculation);
        this.stretch = config.macroSteps() && speculation == null ? new DecodeStretch(running, kv, config) : null;
        this.arrivedDuringStep = config.asyncScheduling() ? new java.util.ArrayDeque<>() : null;
    }

    public int id() { return id; }
    public EngineConfig config() { return config; }
    public KvCache kvCache() { return kv; }
    public LatencyModel latencyModel() { return latency; }
    public int queueDepth() { return waiting(); }
    public int runningCount() { return running.size(); }
    /** Requests routed here that have not left yet (in queueing delay, waiting or running). */
    public long inFlight() { return inFlight; }
    /** KV blocks of the prompts of the requests in flight here (what a router tracking its own dispatches counts). */
    public long inFlightPromptBlocks() { return inFlightPromptBlocks; }
    public long steps() { return steps; }
    /** Of {@link #steps()}, those taken as macro-steps of a steady decode stretch ({@link DecodeStretch}). */
    public long macroSteps() { return macroSteps; }
    public long preemptions() { return preemptions; }
    /** Verify steps with draft tokens (vLLM {@code spec_decode_num_drafts}); 0 without speculative decoding. */
    public long specVerifySteps() { return speculation == null ? 0 : speculation.verifySteps(); }
    /** Image, audio and video items the encoder ran; 0 without multimodal requests. */
    public long encoderItems() {
        return encoder != null ? encoder.encodedItems() : embeddings != null ? embeddings.encodedItems() : 0;
    }
    /** Encoder tokens run; 0 without multimodal requests. */
    public long encoderTokens() {
        return encoder != null ? encoder.encodedTokens() : embeddings != null ? embeddings.encodedTokens() : 0;
    }
    /** Encoder-cache tokens some request still references (0 once every request that needed an item is done). */
    public long encoderReferencedTokens() { return encoder == null ? 0 : encoder.cacheTokens() - encoder.unreferencedTokens(); }
    /** Items a scheduled request needed whose encoder output was cached; 0 without multimodal requests. */
    public long encoderCacheHits() {
        return encoder != null ? encoder.cacheHits() : embeddings != null ? embeddings.cacheHits() : 0;
    }
    /** Draft tokens verified (vLLM {@code spec_decode_num_draft_tokens}); 0 without speculative decoding. */
    public long specDraftTokens() { return speculation == null ? 0 : speculation.draftTokens(); }
    /** Draft tokens accepted (vLLM {@code spec_decode_num_accepted_tokens}); 0 without speculative decoding. */
    public long specAcceptedTokens() { return speculation == null ? 0 : speculation.acceptedTokens(); }
    public boolean stepPending() { return stepPending; }
    /** Tokens the waiting requests must compute before their first token (for wait estimates). */
    public long waitingPromptTokens() { return waitQueue.promptTokens() + arrivedPromptTokens; }
    /** Steps in which the head of the wait queue lacked KV blocks while the next request would have fit. */
    public long headOfLineBlocks() { return headOfLineBlocks; }

    /**
     * ARRIVAL: the request reaches this instance's server; it joins the engine core's wait queue after the front end's
     * ingress and the latency model's queueing delay.
     */
    public void onArrival(Request r, long nowUs) {
        r.instanceId = id;
        inFlight++;
        inFlightPromptBlocks += kv.blocksFor(r.inputTokens());
        events.schedule(nowUs + frontEnd.ingressUs(r.inputTokens()) + latency.queueingDelayUs(r.inputTokens()),
                EventKind.QUEUED, id, r);
        publish();
    }

    /** QUEUED: drop guards, then the wait queue; wakes an idle engine. */
    public void onQueued(Request r, long nowUs) {
        if (r.enqueueUs < 0 || r.enqueueUs > nowUs) {
            // vLLM's busy loop reads its input queue between steps (EngineCoreProc.run_busy_loop: _process_input_queue,
            // then _process_engine_step), and Scheduler.add_request records QUEUED then: at the end of the step executing
            // now, if one is. A request moved here by a drain keeps its first enqueue time if that intake had happened;
            // moved before its first engine's step ended, it never entered that scheduler and enters this one's.
            r.enqueueUs = Math.max(nowUs, busyUntilUs);
        }
        DropReason reason = unservable(r);
        if (reason != null) {
            drop(r, reason, nowUs);
            return;
        }
        r.waitOrder = enqueueSeq++;
        r.state = Request.State.QUEUED;
        if (arrivedDuringStep != null && nowUs < busyUntilUs) {
            // async scheduling: the step after this one is already formed
            arrivedDuringStep.addLast(r);
            arrivedPromptTokens += r.numTokens();
        } else {
            waitQueue.add(r);
        }
        wake(nowUs);
        publish();
    }

    /**
     * Work arrived: an idle engine starts at once, a busy one (a step still executing) right after it; in a lockstep
     * group, the group does ({@link Lockstep#wake}).
     */
    private void wake(long nowUs) {
        if (stepPending) {
            return;
        }
        stepPending = true;
        if (lockstep != null) {
            lockstep.wake(nowUs);
        } else {
            events.schedule(Math.max(nowUs, busyUntilUs), EventKind.STEP, id, null);
        }
    }

    /** Requests waiting here: the wait queue and, under async scheduling, those queued during the current step. */
    private int waiting() {
        return waitQueue.size() + (arrivedDuringStep == null ? 0 : arrivedDuringStep.size());
    }

    /** Async scheduling: the requests queued during the step that just ended join the wait queue. */
    private void releaseArrived() {
        if (arrivedDuringStep != null && !arrivedDuringStep.isEmpty()) {
            Request r;
            while ((r = arrivedDuringStep.pollFirst()) != null) {
                waitQueue.add(r);
            }
            arrivedPromptTokens = 0;
        }
    }

    private DropReason unservable(Request r) {
        return config.refuses(r.inputTokens(), r.maxOutputTokens());
    }

    private void drop(Request r, DropReason reason, long nowUs) {
        r.state = Request.State.DROPPED;
        r.dropReason = reason;
        r.completionUs = nowUs;
        events.schedule(nowUs, EventKind.REQUEST_LEFT, id, r);
    }

    /**
     * KV_LOADED: {@code r}'s blocking reload from the CPU tier completed (vLLM's
     * {@code finished_recving}); its blocks are freed, hashed, at the MRU end of the free queue, and it
     * returns to the front of the wait queue, where its next admission hits them; an idle engine wakes.
     */
    public void onKvLoaded(Request r, long nowUs) {
        parkedBlocks -= r.heldBlocks();
        r.reloadedTokens = r.cpuHitTokens;
        kv.release(r);
        r.computedTokens = 0;
        waitQueue.addFront(r);
        wake(nowUs);
        publish();
    }

    /** STEP: one engine iteration (the four phases); in a lockstep group, one step of the group ({@link Lockstep}). */
    public void onStep(long nowUs) {
        if (lockstep != null) {
            lockstep.onStep(nowUs);
            return;
        }
        stepPending = false;
        StepShape step = formStep(nowUs);
        if (step == null) {
            return;
        }
        long stepUs = adjustedStepUs(nowUs, latency.stepTimeUs(step));
        if (finishStep(nowUs, stepUs, step)) {
            stepPending = true;
            events.schedule(nowUs + stepUs, EventKind.STEP, id, null);
        }
        publish();
        assert Invariants.checkEngine(this);
    }

    /** Phase 1: the step's shape (a steady decode step's or the batch former's), or null when there is nothing to run. */
    StepShape formStep(long nowUs) {
        if (running.isEmpty() && waitQueue.isEmpty()) {
            // nothing was formed ahead of the requests queued meanwhile: they are scheduled at once
            releaseArrived();
            if (waitQueue.isEmpty()) {
                return null; // emptied by an immediate drain after this step was scheduled
            }
        }
        if (tiered) {
            kv.setClockUs(nowUs);
        }
        formedAtUs = arrivedDuringStep != null && busyUntilUs == nowUs && stepStartUs >= 0 ? stepStartUs : nowUs;
        StepShape steady = steadyStep(nowUs);
        formedSteady = steady != null;
        if (steady == null) {
            shape.clear();
            former.form(nowUs, shape);
        }
        releaseArrived();
        return steady != null ? steady : shape;
    }

    /** The priced step time with this replica's own additions: its warm-up factor and its CPU-tier reload stall. */
    long adjustedStepUs(long nowUs, long pricedUs) {
        long stepUs = Math.max(1, pricedUs);
        if (warmup != null && warmingUp(nowUs)) {
            stepUs = Math.max(1, Math.round(stepUs * warmup.factor()));
        }
        if (tiered) {
            stepUs += kv.takeReloadStallUs();
        }
        return stepUs;
    }

    /** Phases 2-3: {@code step} (from {@link #formStep}) executes for {@code stepUs}; whether work remains after it. */
    boolean finishStep(long nowUs, long stepUs, StepShape step) {
        long endUs = nowUs + stepUs;
        busyUntilUs = endUs;
        stepStartUs = nowUs;
        steps++;
        observer.onStep(this, nowUs, stepUs, step);
        if (formedSteady) {
            // every running request samples a token one step time (+ a2) after its previous one
            long itlUs = stepUs + outputProcessingUs;
            observer.onInterTokenLatency(itlUs, stretch.members());
            stretch.executed(endUs, itlUs);
            stretch.absorbAdmitted(execution, endUs);
            if (stretch.active() && stretch.completedSome()) {
                stretch.complete(execution);
            }
            macroSteps++;
        } else {
            execution.executeAndComplete(endUs);
        }
        return !running.isEmpty() || !waitQueue.isEmpty();
    }

    /**
     * A lockstep group's step is over for this rank (it ran a batch or a dummy one from {@code groupStartUs} until
     * {@code groupBusyUntilUs}; -1 and the previous end when the group had nothing to step): whether it waits for
     * another ({@code pending}).
     */
    void lockstepStepped(boolean pending, long groupStartUs, long groupBusyUntilUs) {
        stepPending = pending;
        if (groupStartUs >= 0) {
            stepStartUs = groupStartUs;
        }
        busyUntilUs = Math.max(busyUntilUs, groupBusyUntilUs);
        publish();
        assert Invariants.checkEngine(this);
    }

    /** Whether this rank has requests to step (running or waiting, those queued during a step included). */
    boolean hasWork() {
        return !running.isEmpty() || waiting() > 0;
    }

    /** Whether the step starting now is in this replica's warm-up phase (its first steps, or its first seconds). */
    private boolean warmingUp(long nowUs) {
        if (firstStepUs < 0) {
            firstStepUs = nowUs;
        }
        return warmup.steps() > 0 ? steps < warmup.steps() : nowUs - firstStepUs < warmup.durationUs();
    }

    /**
     * The shape of this step if it is a steady decode step ({@link DecodeStretch}; its KV calls made
     * and the requests waiting admitted as far as the batch former admits them), else null, any
     * stretch ended, and the step is formed by the batch former.
     */
    private StepShape steadyStep(long nowUs) {
        if (stretch == null) {
            return null;
        }
        if (stretch.active() || stretch.tryStart(nowUs)) {
            StepShape s = stretch.step();
            if (s != null) {
                if (!waitQueue.isEmpty()) {
                    // phase 2 as the batch former runs it, after the stretch's phase 1 (one token each)
                    batchFormer.startStep();
                    batchFormer.admitWaiting(nowUs, s, config.maxNumBatchedTokens() - running.size());
                }
                return s;
            }
        }
        endStretch();
        return null;
    }

    /** Writes a running stretch back into the batch (before anything reads or changes it one request at a time). */
    private void endStretch() {
        if (stretch != null && stretch.active()) {
            stretch.end();
        }
    }

    private void onPreempted(Request r, long nowUs) {
        preemptions++;
        observer.onPreempted(this, r, nowUs);
    }

    private void onAdmitted(Request r, long nowUs) {
        if (r.firstScheduleUs < 0) {
            r.firstScheduleUs = nowUs;
            r.scheduledUs = Math.max(formedAtUs, r.enqueueUs);
        }
        if (r.kvResident) {
            r.kvResident = false;
            r.kvAdmitUs = nowUs;
            receivingBlocks -= r.heldBlocks();
        }
    }

    /** REQUEST_LEFT: hand the finished request to observers. */
    public void onLeft(Request r, long nowUs) {
        inFlight--;
        inFlightPromptBlocks -= kv.blocksFor(r.inputTokens());
        publish();
        observer.onLeft(this, r, nowUs);
    }

    /** End of run (horizon): hands every still-waiting or running request to {@code sink}. */
    public void drainUnfinished(Consumer<Request> sink) {
        endStretch();
        running.drain(sink);
        releaseArrived();
        waitQueue.drain(sink);
        publish();
    }

    /** Blocks held for P/D transfers: prefill stages' sources, and reservations and received KV (INV-4's owners). */
    long parkedBlocksForInvariants() {
        return parkedBlocks + execution.finishingBlocks() + handOffBlocks + receivingBlocks;
    }

    /** SGLang core, P/D: tree pages locked by prefill stages out of the batch that still own their KV (INV-4's owners). */
    long lockedTreePagesForInvariants() {
        return execution.finishingTreePages() + handOffTreePages;
    }

    /** The tree pages {@code r}'s path locks beside its own blocks: its matched and inserted prefix (SGLang core), else 0. */
    private int treePagesOf(Request r) {
        return radix == null ? 0 : r.registeredBlocks;
    }

    /** The KV blocks {@code r} holds here: its own, and under the SGLang core the tree pages its path locks. */
    public int blocksHeldBy(Request r) {
        return r.heldBlocks() + treePagesOf(r);
    }

    // ---- P/D disaggregation: the engine side of a KV handoff (io.servesim.disagg drives it) ----

    /**
     * PREFILL_DONE: the prefill stage {@code b} computed its prompt and first token here; it is no
     * longer in flight (the prefill router's bookkeeping ends, as Dynamo's {@code mark_prefill_completed})
     * but its blocks stay held until {@link #releaseHandedOff}.
     */
    public void handOff(Request b) {
        execution.handedOff(b);
        handOffBlocks += b.heldBlocks();
        handOffTreePages += treePagesOf(b);
        inFlight--;
        inFlightPromptBlocks -= kv.blocksFor(b.inputTokens());
        publish();
    }

    /** The KV transfer of {@code b} completed: its blocks are freed here (hashed ones stay cached for later hits). */
    public void releaseHandedOff(Request b) {
        handOffBlocks -= b.heldBlocks();
        handOffTreePages -= treePagesOf(b);
        releaseKv(b);
    }

    /**
     * A finished request's KV: freed, its hashed blocks staying cached (vLLM core), or inserted into the radix tree and
     * unlocked (SGLang core, {@code cache_finished_req}).
     */
    private void releaseKv(Request r) {
        if (batchFormer != null) {
            batchFormer.releaseEncoderInputs(r);
        }
        if (radix != null) {
            radix.cacheFinished(r);
        } else {
            kv.release(r);
        }
    }

    /** Blocks held here as the sources of KV transfers in flight (completed prefill stages). */
    public long handOffBlocks() { return handOffBlocks; }

    /** Blocks reserved here for incoming KV transfers or held by requests waiting with their received KV. */
    public long receivingBlocks() { return receivingBlocks; }

    /**
     * A request handed off to this (decode) instance after its prefill elsewhere: it is in flight here
     * from now; false when this instance can never serve it (the drop guards of {@link #onQueued}; it
     * is then dropped and leaves).
     */
    public boolean acceptHandoff(Request r, long nowUs) {
        r.instanceId = id;
        inFlight++;
        inFlightPromptBlocks += kv.blocksFor(r.inputTokens());
        publish();
        DropReason reason = unservable(r);
        if (reason != null) {
            drop(r, reason, nowUs);
            return false;
        }
        return true;
    }

    /**
     * Allocates the blocks {@code r}'s transferred KV lands in: its prompt and the first output token
     * (so its first decode step needs none), unregistered until the KV has arrived. All-or-nothing;
     * false when too few blocks are free (the transfer must wait).
     */
    public boolean reserveHandoff(Request r) {
        if (radix != null ? !radix.allocateOwn(r, r.inputTokens() + 1) : !kv.reserve(r, r.inputTokens() + 1)) {
            return false;
        }
        receivingBlocks += r.heldBlocks();
        return true;
    }

    /**
     * KV_RECEIVED: {@code r}'s KV transfer into its reserved blocks completed; it joins the wait queue
     * with its prompt computed, and its admission schedules its next token without recomputing
     * ({@link BatchFormer}), as vLLM's scheduler admits a request whose remote KVs finished receiving. A request of
     * one output token, which its prefill stage produced, has nothing left here: it completes as its KV arrives.
     */
    public void onKvReceived(Request r, long nowUs) {
        if (r.generatedTokens >= r.targetOutputTokens()) {
            // its only token came with its prefill stage: nothing is left to compute, so it completes as it arrives
            receivingBlocks -= r.heldBlocks();
            r.kvAdmitUs = nowUs;
            releaseKv(r);
            r.state = Request.State.COMPLETED;
            r.completionUs = nowUs;
            events.schedule(nowUs, EventKind.REQUEST_LEFT, id, r);
            return;
        }
        r.kvResident = true;
        r.waitOrder = enqueueSeq++;
        r.state = Request.State.QUEUED;
        waitQueue.addReceived(r);
        wake(nowUs);
        publish();
    }

    /**
     * Drain (redirect, immediate): hands every waiting request to {@code sink}, no longer in flight
     * here. Waiting requests hold no KV blocks (a preempted one released them).
     */
    public void evacuateWaiting(Consumer<Request> sink) {
        releaseArrived();
        waitQueue.drain(r -> {
            if (batchFormer != null) {
                batchFormer.releaseEncoderInputs(r); // a waiting request may hold items its failed admission found cached
            }
            leaveForElsewhere(r);
            sink.accept(r);
        });
        publish();
    }

    /**
     * Immediate drain: every running request loses its KV (as a recompute preemption does, its
     * output so far kept) and goes to {@code sink}, no longer in flight here.
     */
    public void evacuateRunning(Consumer<Request> sink) {
        endStretch();
        running.drain(r -> {
            if (radix != null) {
                radix.release(r);
            } else {
                kv.releasePreempted(r, r.computedTokens);
                batchFormer.releaseEncoderInputs(r);
            }
            r.computedTokens = 0;
            leaveForElsewhere(r);
            sink.accept(r);
        });
        publish();
    }

    /** A request in queueing delay here is sent elsewhere before it reaches the wait queue. */
    public void abandon(Request r) {
        leaveForElsewhere(r);
    }

    private void leaveForElsewhere(Request r) {
        r.state = Request.State.PENDING;
        inFlight--;
        inFlightPromptBlocks -= kv.blocksFor(r.inputTokens());
        publish();
    }

    /**
     * Writes this engine's request counts into the routing board it publishes to (at the end of every
     * call that changes them; the KV cache keeps its free count there itself).
     */
    private void publish() {
        if (board != null) {
            board.queued[id] = waiting();
            board.running[id] = running.size();
            board.inFlight[id] = inFlight;
        }
    }

    /** From now on this engine steps only with {@code group} (before any request arrives; once per engine). */
    void joinLockstep(Lockstep group) {
        if (lockstep != null || stretch != null) {
            throw new IllegalStateException("engine " + id + " already steps in a group, or runs macro-steps");
        }
        lockstep = group;
    }

    /** From now on this engine keeps its counts in {@code board} (once per engine). */
    public void publishTo(LoadBoard board) {
        if (this.board != null) {
            throw new IllegalStateException("engine " + id + " already publishes to a board");
        }
        this.board = board;
        kv.publishFreeBlocksTo(board.freeBlocks, id);
        board.totalBlocks[id] = kv.totalBlocks();
        publish();
    }

    /** The SGLang core's radix tree, or null (the vLLM core). */
    RadixCache radixForInvariants() {
        return radix;
    }

    /** The multimodal encoder's scheduling, or null without multimodal requests. */
    EncoderInputs encoderForInvariants() {
        return encoder;
    }

    int waitingForInvariants() {
        return waiting();
    }

    RunningBatch runningForInvariants() {
        return running;
    }

    /** Slot {@code i}'s computed tokens, inside a macro-step stretch too. */
    int computedForInvariants(int i) {
        return stretch == null ? running.computed[i] : stretch.computed(i);
    }
}
