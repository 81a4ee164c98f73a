package io.servesim.engine;

import io.servesim.kernel.EventKind;
import io.servesim.kernel.EventQueue;
import io.servesim.latency.ExpertParallelStep;
import io.servesim.latency.StepShape;

/**
 * Data-parallel ranks of a MoE model with expert parallelism, stepping in lockstep as vLLM's DP coordinator runs them
 * ({@code vllm/v1/engine/coordinator.py DPCoordinator} and {@code vllm/v1/engine/core.py DPEngineCoreProc}): while any
 * rank has requests the group is in a "wave" and every rank steps, an idle one on a dummy batch
 * ({@code execute_dummy_batch}), because every MoE layer's dispatch and combine are collectives over all ranks. Each
 * rank keeps its own scheduler, wait queue and KV cache ({@link Engine}); a step of the group forms every rank's batch,
 * prices them together ({@link ExpertParallelStep}: the slowest rank sets the step) and ends on every rank at once.
 * A rank's own additions (its warm-up factor, its CPU-tier reload stall) lengthen the whole group's step. Macro-steps
 * ({@link DecodeStretch}) are off in a group: a stretch of one rank cannot hold while another's batch changes.
 *
 * <p>The group's steps are events of its first rank; a rank that gets work while the group is idle wakes it.
 */
public final class Lockstep {
    private final Engine[] ranks;
    private final StepShape[] shapes;
    private final StepShape dummy = new StepShape();
    private final ExpertParallelStep pricing;
    private final EventQueue events;
    private boolean pending;
    private long busyUntilUs;
    private long steps;
    private long dummyBatches;

    /** Joins {@code ranks} (created without macro-steps, before any request arrives) into one group priced by {@code pricing}. */
    public Lockstep(Engine[] ranks, ExpertParallelStep pricing, EventQueue events) {
        if (ranks.length < 2) {
            throw new IllegalArgumentException("a lockstep group needs 2 ranks or more, got " + ranks.length);
        }
        this.ranks = ranks.clone();
        this.shapes = new StepShape[ranks.length];
        this.pricing = pricing;
        this.events = events;
        for (Engine e : ranks) {
            e.joinLockstep(this);
        }
    }

    /** A rank got work: the group steps now if idle, else right after its step in flight. */
    void wake(long nowUs) {
        if (!pending) {
            pending = true;
            events.schedule(Math.max(nowUs, busyUntilUs), EventKind.STEP, ranks[0].id(), null);
        }
    }

    /** STEP of the group: every rank's batch formed, priced together, executed until the same end. */
    void onStep(long nowUs) {
        pending = false;
        boolean any = false;
        for (int i = 0; i < ranks.length; i++) {
            shapes[i] = ranks[i].formStep(nowUs);
            any |= shapes[i] != null;
        }
        if (!any) {
            for (Engine e : ranks) {
                e.lockstepStepped(false, -1, busyUntilUs);
            }
            return;
        }
        long pricedUs = pricing.stepTimeUs(shapes, dummy);
        long stepUs = pricedUs;
        for (int i = 0; i < ranks.length; i++) {
            if (shapes[i] != null) {
                stepUs = Math.max(stepUs, ranks[i].adjustedStepUs(nowUs, pricedUs));
            }
        }
        boolean more = false;
        for (int i = 0; i < ranks.length; i++) {
            if (shapes[i] != null) {
                more |= ranks[i].finishStep(nowUs, stepUs, shapes[i]);
            } else {
                dummyBatches++;
            }
        }
        steps++;
        busyUntilUs = nowUs + stepUs;
        for (Engine e : ranks) {
            more |= e.hasWork();
        }
        for (Engine e : ranks) {
            e.lockstepStepped(more && e.hasWork(), nowUs, busyUntilUs);
        }
        if (more) {
            pending = true;
            events.schedule(busyUntilUs, EventKind.STEP, ranks[0].id(), null);
        }
    }

    /** Steps the group took. */
    public long steps() {
        return steps;
    }

    /** Dummy batches idle ranks ran (one per idle rank per step). */
    public long dummyBatches() {
        return dummyBatches;
    }
}
