package io.servesim.engine;

/**
 * Debug-mode invariant checks (run under {@code java -ea}, which the tests and {@code --debug}
 * enable). Each returns true so it can sit in an {@code assert}; a violation throws.
 */
public final class Invariants {
    /** Above this many blocks the O(blocks) KV walk is skipped and only counts are checked. */
    private static final int FULL_KV_WALK_LIMIT = 4096;

    private Invariants() {
    }

    /**
     * INV-4 (KV block conservation, with speculative decoding's draft and lookahead slots: a request never holds more
     * than its tokens, k drafts and the lookahead need, so rejected drafts' slots are reused, not leaked) and batch
     * limits after a step.
     */
    public static boolean checkEngine(Engine e) {
        KvCache kv = e.kvCache();
        if (kv.usedBlocks() + kv.freeBlocks() != kv.totalBlocks()) {
            throw new IllegalStateException("INV-4: used " + kv.usedBlocks() + " + free " + kv.freeBlocks()
                    + " != total " + kv.totalBlocks());
        }
        EncoderInputs encoder = e.encoderForInvariants();
        if (encoder != null && (encoder.unreferencedTokens() < 0 || encoder.unreferencedTokens() > encoder.cacheTokens())) {
            throw new IllegalStateException("encoder cache: " + encoder.unreferencedTokens() + " unreferenced tokens outside [0, "
                    + encoder.cacheTokens() + "]");
        }
        RadixCache radix = e.radixForInvariants();
        if (kv.totalBlocks() <= FULL_KV_WALK_LIMIT) {
            kv.checkInvariants();
            if (radix != null) {
                radix.checkInvariants();
            }
        }
        var running = e.runningForInvariants();
        if (running.size() > e.config().maxNumSeqs()) {
            throw new IllegalStateException("running " + running.size() + " > max_num_seqs " + e.config().maxNumSeqs());
        }
        long held = 0;
        SpecDecodeConfig spec = e.config().speculative();
        // speculative decoding: a request holds slots for its verified tokens, at most k drafts and the lookahead, no more
        int draftSlots = spec.k() + spec.lookaheadTokens();
        long own = 0;
        for (int i = 0; i < running.size(); i++) {
            Request r = running.request(i);
            if (r.state != Request.State.RUNNING) {
                throw new IllegalStateException("non-running request in batch: " + r);
            }
            int computed = e.computedForInvariants(i);
            // the SGLang core's requests hold their tree prefix (registeredBlocks) and their own pages
            int blocks = radix == null ? r.heldBlocks() : r.registeredBlocks + r.heldBlocks();
            if (blocks < kv.blocksFor(computed)) {
                throw new IllegalStateException("request holds " + blocks + " blocks for " + computed + " tokens: " + r);
            }
            if (r.blockTokens != blocks * kv.blockSize()) {
                throw new IllegalStateException("request's block tokens " + r.blockTokens + " != " + blocks
                        + " held blocks x " + kv.blockSize() + ": " + r);
            }
            if (running.fastLimit[i] > r.blockTokens) {
                throw new IllegalStateException("running slot " + i + " may reach " + running.fastLimit[i]
                        + " tokens without KV but holds " + r.blockTokens + ": " + r);
            }
            if (spec.enabled() && r.heldBlocks() > kv.blocksFor((long) computed + 1 + draftSlots)) {
                throw new IllegalStateException("INV-4: request holds " + r.heldBlocks() + " blocks, more than its "
                        + computed + " computed tokens, the next one, " + spec.k() + " drafts and " + spec.lookaheadTokens()
                        + " lookahead slots need: " + r);
            }
            held += blocks;
            own += r.heldBlocks();
        }
        held += e.parkedBlocksForInvariants();
        // SGLang core: the pool's used pages are exactly the locked nodes' and the requests' own
        if (radix != null && radix.protectedPages() + own + e.parkedBlocksForInvariants() != kv.usedBlocks()) {
            throw new IllegalStateException("INV-4: " + kv.usedBlocks() + " pages used but locked radix nodes hold "
                    + radix.protectedPages() + " and requests " + own + " + " + e.parkedBlocksForInvariants() + " of their own");
        }
        held += e.lockedTreePagesForInvariants();
        if (held < kv.usedBlocks()) {
            throw new IllegalStateException("INV-4: " + kv.usedBlocks() + " blocks used but running and reloading requests"
                    + " hold only " + held);
        }
        if (running.isEmpty() && e.waitingForInvariants() > 0 && !e.stepPending()) {
            throw new IllegalStateException("INV-8: idle engine with " + e.waitingForInvariants() + " waiting requests");
        }
        return true;
    }

    /** INV-5 causality of one finished request's timestamps. */
    public static boolean checkCausality(Request r) {
        long a = r.arrivalUs();
        long q = r.enqueueUs();
        long d = r.scheduledUs();
        long s = r.firstScheduleUs();
        long f = r.firstTokenUs();
        long c = r.completionUs();
        boolean ok = switch (r.state()) {
            case COMPLETED -> a <= q && q <= d && d <= s && s <= f && f <= c;
            case DROPPED -> q < 0 || a <= q;
            default -> true;
        };
        if (!ok) {
            throw new IllegalStateException("INV-5: arrival " + a + " <= enqueue " + q + " <= scheduled " + d + " <= first step " + s
                    + " <= first token " + f + " <= completion " + c + " violated by " + r);
        }
        return true;
    }
}
