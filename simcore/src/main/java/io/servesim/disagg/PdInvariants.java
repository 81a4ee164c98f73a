package io.servesim.disagg;

import io.servesim.engine.Engine;
import io.servesim.engine.KvCache;

/**
 * Debug-mode checks of P/D ownership and per-pool KV conservation (under {@code java -ea}, as
 * {@code engine.Invariants}); each returns true to sit in an {@code assert}, a violation throws.
 * O(instances) per handoff event.
 */
final class PdInvariants {
    private PdInvariants() {
    }

    /**
     * After an event of {@code t}'s handoff: its KV has exactly one owner (the prefill stage holds
     * blocks exactly while the prefill instance owns them; the request holds decode blocks only once
     * its transfer started, as a reservation until it arrived); per pool, used + free = total at every
     * engine, and the prefill pool's blocks kept for transfers are exactly those of the stages that
     * still own their KV.
     */
    static boolean check(PdCoordinator pd, Transfer t) {
        int stageBlocks = pd.engines()[t.prefillId].blocksHeldBy(t.prefillStage);
        int requestBlocks = t.request.heldBlocks();
        switch (t.owner) {
            case PREFILL -> {
                if (stageBlocks == 0) {
                    throw new IllegalStateException("P/D: request " + t.request.id() + " owned by prefill instance "
                            + t.prefillId + " which holds none of its blocks");
                }
                if ((t.startUs < 0) != (requestBlocks == 0)) {
                    throw new IllegalStateException("P/D: request " + t.request.id() + " holds " + requestBlocks
                            + " decode blocks with its transfer " + (t.startUs < 0 ? "not started" : "started"));
                }
            }
            case DECODE -> {
                if (stageBlocks != 0) {
                    throw new IllegalStateException("P/D: request " + t.request.id() + " owned by decode instance "
                            + t.decodeId + " while prefill instance " + t.prefillId + " still holds " + stageBlocks + " blocks");
                }
            }
            case RELEASED -> {
                if (stageBlocks != 0) {
                    throw new IllegalStateException("P/D: released request " + t.request.id() + " keeps prefill blocks");
                }
            }
        }
        Engine[] engines = pd.engines();
        long handOff = 0;
        for (int i = 0; i < engines.length; i++) {
            KvCache kv = engines[i].kvCache();
            if (kv.usedBlocks() + kv.freeBlocks() != kv.totalBlocks()) {
                throw new IllegalStateException("P/D: " + (i < pd.prefillCount() ? "prefill" : "decode") + " engine " + i
                        + " used " + kv.usedBlocks() + " + free " + kv.freeBlocks() + " != total " + kv.totalBlocks());
            }
            if (i < pd.prefillCount()) {
                handOff += engines[i].handOffBlocks();
            } else if (engines[i].handOffBlocks() != 0) {
                throw new IllegalStateException("P/D: decode engine " + i + " keeps blocks for a transfer");
            }
        }
        if (handOff != pd.prefillOwnedBlocks()) {
            throw new IllegalStateException("P/D: prefill pool keeps " + handOff + " blocks for transfers but the stages"
                    + " owning their KV hold " + pd.prefillOwnedBlocks());
        }
        return true;
    }
}
