package io.servesim.disagg;

import io.servesim.engine.Request;

/**
 * One disaggregated request's handoff: its prefill stage on a prefill instance, then its KV transfer
 * to a decode instance, and who owns its KV blocks meanwhile. Ownership (BLIS macro plan, D.4: "Single
 * ownership; blocks transfer from prefill to decode instance, not duplicated": inference-sim/inference-sim
 * @ 7d4e8bac, {@code docs/plans/2026-02-11-macro-implementation-plan-v2.md}) moves once: the prefill
 * instance owns the blocks from its prefill until the transfer completes; the decode instance's blocks
 * are a reserved destination until then, and the owner afterwards; the prefill instance frees its copy
 * at that moment.
 */
final class Transfer {
    /** Who owns the request's KV blocks. */
    enum Owner { PREFILL, DECODE, RELEASED }

    final Request request;
    final Request prefillStage;
    final int prefillId;
    int decodeId = -1;
    Owner owner = Owner.PREFILL;
    /** Bytes one stream carries (the time-setting share) and those left on the link. */
    double streamBytes;
    double remainingBytes;
    /** Bytes the transfer moves over all its streams. */
    long bytes;
    /** When the prefill stage finished (the handoff began), -1 before. */
    long prefillDoneUs = -1;
    /** When the decode instance had reserved its blocks and the bytes began to flow, -1 before. */
    long startUs = -1;
    /** When the last byte moved, -1 before. */
    long bytesDoneUs = -1;
    /** When the KV arrived (ownership moved), -1 before. */
    long endUs = -1;
    /** Microseconds the bytes take alone on the link. */
    long aloneUs;
    /** The transfer waited in the decode instance's queue for blocks. */
    boolean waitedForBlocks;

    Transfer(Request request, Request prefillStage, int prefillId) {
        this.request = request;
        this.prefillStage = prefillStage;
        this.prefillId = prefillId;
    }

    /** Time waiting in the decode instance's queue for its blocks: start - prefill done; -1 before the start. */
    long allocWaitUs() {
        return startUs < 0 ? -1 : startUs - prefillDoneUs;
    }

    /** Time the bytes took beyond their time alone on the link (bandwidth shared); -1 before they moved. */
    long bandwidthWaitUs() {
        return bytesDoneUs < 0 ? -1 : Math.max(0, bytesDoneUs - startUs - aloneUs);
    }

    /** Transfer time, start to arrival (base latency included); -1 before it arrived. */
    long transferUs() {
        return endUs < 0 ? -1 : endUs - startUs;
    }
}
