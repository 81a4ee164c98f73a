package io.servesim.engine;

import io.servesim.latency.StepShape;
import it.unimi.dsi.fastutil.longs.LongOpenHashSet;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Random;

/**
 * Forms the SGLang core's steps as SGLang's scheduler does (sgl-project/sglang {@code python/sglang/srt/managers/}
 * {@code scheduler.py} {@code get_next_batch_to_run}, {@code get_new_batch_prefill}, {@code update_running_batch};
 * {@code schedule_policy.py} {@code SchedulePolicy} and {@code PrefillAdder} at 00550cd11b35def9d584bf761a1e32729c20a21d;
 * {@code schedule_batch.py} {@code check_decode_mem}, {@code retract_decode}, {@code release_req} at
 * 000eaffacf048e51b64d4d72985ef8f0b7054b39), and as the Dynamo mocker's SGLang core models it (ai-dynamo/dynamo
 * {@code lib/mocker/src/scheduler/sglang/core.rs} at 05d7f2af66ae603b41efdb3f6a4e0453a215ae7f, {@code prefill.rs} at
 * 313f8e69ffaa9ac523f1dec149d817de16e77cda, {@code policy.rs} at 5673481579abfd50ea10ec8337e40bb24515b3e2):
 * <ol>
 *   <li><b>Prefill first.</b> A step is a prefill (extend) batch whenever one can form, else a decode batch of every
 *       running request (mixed chunks are off, SGLang's default). No prefill is tried while the batch is marked full
 *       (a request did not fit, or {@code max_running_requests} was reached) until a running request leaves, unless
 *       a chunked request is in flight.</li>
 *   <li><b>Order.</b> The wait queue is ordered by {@code schedule_policy} ({@code calc_priority}): {@code lpm} sorts by
 *       the longest radix-tree match, requests with at most 32 matched tokens that share their first 32 tokens with a
 *       request ahead of them last (in-batch prefix caching), and falls back to fcfs while more than 128 wait;
 *       {@code dfs-weight} walks the tree depth-first, subtrees with more waiting requests first; {@code lof} sorts by
 *       the output budget, largest first; {@code random} shuffles (a seeded generator per engine); {@code fcfs} keeps
 *       arrival order. The sorted order persists, as SGLang sorts its list in place.</li>
 *   <li><b>Admission</b> ({@code PrefillAdder}): the in-flight chunked request's next chunk first (at most
 *       {@code min(rem_chunk_tokens, rem_total_tokens)}, page-aligned), then waiting requests in order while
 *       <pre>rem_total_tokens = (available + evictable) - sum over running r of min(max_new - generated, 4096) x new_token_ratio
 *                   - sum over admitted r of (min(max_new - generated, 4096) + page_size)</pre>
 *       exceeds the request's {@code extend + min(max_new - generated, 4096) + page_size} (checked again with its prefix
 *       locked; else the batch is full; {@code add_one_req}) and {@code max_prefill_tokens} and {@code chunked_prefill_size} are not used up
 *       ({@code budget_state}); a longer extend is cut to the chunk budget (page-aligned) and becomes the
 *       chunked request. The last prompt token is always recomputed ({@code max_prefix_len = len - 1}). An admitted
 *       request's computed pages enter the tree at once ({@code cache_unfinished_req}).</li>
 *   <li><b>Decode</b> ({@code update_running_batch}): if the pages the batch's next tokens need are not available
 *       after evicting ({@code check_decode_mem}), requests are retracted: the one with the fewest output tokens, of
 *       those the longest prompt, first, until the survivors' next step fits (at least one, never the last); each
 *       frees its own pages, keeps its output and waits at the back of the queue to re-prefill; then
 *       {@code new_token_ratio = min(1, (sum generated + 20 x survivors) / sum max_new)} over the survivors. Without a
 *       retraction the ratio decays by {@code (init - min) / decay_steps} down to its floor. An idle engine resets it.</li>
 * </ol>
 * A request's output budget ({@code max_new_tokens}) is its client's {@code max_tokens}, or its own output length
 * when the client gave none (as the mocker's requests carry their generation length). P/D: a request whose KV was
 * transferred here joins the running batch at once and decodes. A prefill chunk of a multimodal request fetches or
 * encodes its items' embeddings ({@link SglangEmbeddingCache}).
 */
final class SglangScheduler implements StepFormer {
    /** SGLang's {@code IN_BATCH_PREFIX_CACHING_CHECK_THRESHOLD} and {@code _DEPRIORITIZE_THRESHOLD} (tokens). */
    static final int IN_BATCH_PREFIX_TOKENS = 32;
    /** Above this many waiting requests {@code lpm} orders first-come first-served ({@code _determine_active_policy}). */
    static final int LPM_FALLBACK_QUEUE = 128;

    private final EngineConfig config;
    private final SglangConfig sg;
    private final KvCache kv;
    private final RadixCache radix;
    private final WaitQueue waitQueue;
    private final RunningBatch running;
    private final BatchFormer.Listener listener;
    /** The multimodal embeddings' cache, or null when no request carries items. */
    private final SglangEmbeddingCache embeddings;
    private final int pageSize;
    /** The wait queue while it is sorted (reused). */
    private final ArrayList<Request> sorting = new ArrayList<>();
    private long[] sortKeys = new long[16];
    private final LongOpenHashSet inBatchPrefixes = new LongOpenHashSet();
    private final Random random;
    private double ratio;
    /** The request whose prefill continues in chunks (SGLang's {@code chunked_req}), or null. */
    private Request chunked;
    private boolean batchFull;
    private int lastRunningSize;

    SglangScheduler(int engineId, EngineConfig config, KvCache kv, RadixCache radix, WaitQueue waitQueue,
                    RunningBatch running, SglangEmbeddingCache embeddings, BatchFormer.Listener listener) {
        this.config = config;
        this.embeddings = embeddings;
        this.sg = config.sglang();
        this.kv = kv;
        this.radix = radix;
        this.waitQueue = waitQueue;
        this.running = running;
        this.listener = listener;
        this.pageSize = radix.pageSize();
        this.random = new Random(0x5617_1A9E_0000_0000L ^ engineId);
        this.ratio = sg.initRatio();
    }

    /** The current {@code new_token_ratio}. */
    double newTokenRatio() {
        return ratio;
    }

    @Override
    public void form(long nowUs, StepShape shape) {
        if (running.size() < lastRunningSize || running.isEmpty()) {
            // a request left the batch, or none runs (update_running_batch: an empty batch is not full): room to try again
            batchFull = false;
        }
        if (chunked != null && slotOf(chunked) < 0) {
            chunked = null; // evacuated
        }
        admitReceived(nowUs);
        if (running.isEmpty()) {
            ratio = sg.initRatio(); // the scheduler's self-check on idle
        }
        boolean formed = prefill(nowUs, shape) || decode(nowUs, shape);
        if (!formed && running.isEmpty() && !waitQueue.isEmpty()) {
            // nothing runs and the head does not fit an idle engine: it never will
            listener.neverFits(waitQueue.poll(), nowUs);
        }
        lastRunningSize = running.size();
    }

    /** P/D: requests whose KV arrived join the running batch (their next token is a decode step). */
    private void admitReceived(long nowUs) {
        while (!waitQueue.isEmpty() && waitQueue.peek().kvResident && running.size() < config.maxNumSeqs()) {
            Request r = waitQueue.poll();
            r.state = Request.State.RUNNING;
            running.add(r, 0);
            listener.admitted(r, nowUs);
        }
    }

    /** {@code get_new_batch_prefill}: a prefill batch into {@code shape}, or false when none forms. */
    private boolean prefill(long nowUs, StepShape shape) {
        boolean hasChunk = chunked != null;
        if ((batchFull || waitQueue.isEmpty()) && !hasChunk) {
            return false;
        }
        if (running.size() - (hasChunk ? 1 : 0) >= config.maxNumSeqs()) {
            batchFull = true;
            return false;
        }
        double reserved = runningReservation();
        int remInput = sg.maxPrefillTokens();
        int remChunk = sg.chunkedPrefillSize();
        boolean any = false;
        if (hasChunk) {
            int s = slotOf(chunked);
            int computed = running.computed[s];
            int extend = running.tokens[s] - computed;
            double rem = Math.min(remChunk, Math.floor(remTotal(reserved)));
            boolean truncated = extend > rem;
            int n = truncated ? floorPage((int) Math.max(0, rem)) : extend;
            if (n > 0 && radix.allocateOwn(chunked, computed + n)) {
                running.newTokens[s] = n;
                shape.addPrefill(n, computed);
                if (embeddings != null) {
                    embeddings.extend(chunked, computed, shape);
                }
                radix.cacheUnfinished(chunked, computed + n);
                reserved += truncated ? 0 : clippedRemaining(chunked, running.generated[s]);
                remInput -= ceilPage(n);
                remChunk -= ceilPage(n);
                any = true;
                if (!truncated) {
                    chunked = null;
                }
            }
        }
        order();
        while (!waitQueue.isEmpty() && chunked == null) {
            if (running.size() >= config.maxNumSeqs()) {
                batchFull = true;
                break;
            }
            Request r = waitQueue.peek();
            if (r.kvResident || remChunk <= 0 || remInput <= 0) { // budget_state: OTHER
                break;
            }
            int prefixPages = radix.match(r, radix.maxPrefixPages(r));
            int prefixLen = prefixPages * pageSize;
            int extend = r.numTokens() - prefixLen;
            int maxNew = clippedRemaining(r, r.generatedTokens);
            long total = (long) extend + maxNew + pageSize; // a page of alignment overhead per request
            if (total >= remTotal(reserved)) {
                batchFull = true;
                break;
            }
            radix.lockMatch(r, prefixPages);
            if (total >= remTotal(reserved)) { // the lock may have made evictable pages protected
                radix.abandon(r);
                batchFull = true;
                break;
            }
            boolean whole = extend <= remChunk;
            int n = whole ? extend : floorPage(remChunk);
            if (n <= 0 || !radix.allocateOwn(r, prefixLen + n)) {
                radix.abandon(r);
                break;
            }
            waitQueue.poll();
            admit(r, prefixLen, n, shape, nowUs);
            radix.cacheUnfinished(r, prefixLen + n);
            reserved += (whole ? maxNew : 0) + pageSize;
            remInput -= ceilPage(n);
            remChunk -= ceilPage(n);
            any = true;
            if (!whole) {
                chunked = r;
            } else if (remTotal(reserved) <= 0) {
                batchFull = true;
                break;
            }
        }
        return any;
    }

    private void admit(Request r, int prefixLen, int newTokens, StepShape shape, long nowUs) {
        r.state = Request.State.RUNNING;
        r.computedTokens = prefixLen;
        r.prefixHitTokens = prefixLen;
        kv.countAdmission(r, prefixLen, r.numTokens());
        r.countAdmissionHits();
        running.add(r, newTokens);
        shape.addPrefill(newTokens, prefixLen);
        if (embeddings != null) {
            embeddings.extend(r, prefixLen, shape);
        }
        listener.admitted(r, nowUs);
    }

    /** {@code update_running_batch}: a decode batch of every running request into {@code shape}, or false when none runs. */
    private boolean decode(long nowUs, StepShape shape) {
        int chunkedSlot = chunked == null ? -1 : slotOf(chunked);
        if (running.size() - (chunkedSlot >= 0 ? 1 : 0) == 0) {
            return false;
        }
        if (!checkDecodeMem()) {
            retract(nowUs);
            batchFull = false;
        } else {
            ratio = Math.max(ratio - sg.ratioDecay(), sg.minRatio());
        }
        boolean any = false;
        for (int i = 0; i < running.size(); i++) {
            Request r = running.request(i);
            if (r == chunked) {
                continue;
            }
            int computed = running.computed[i];
            if (!radix.allocateOwn(r, computed + 1)) {
                // the last request left cannot grow by one token even after evicting everything
                running.remove(i--);
                radix.release(r);
                listener.neverFits(r, nowUs);
                continue;
            }
            running.newTokens[i] = 1;
            shape.addDecode(computed);
            any = true;
        }
        return any;
    }

    /**
     * {@code check_decode_mem}: the pages the decoding requests' next tokens need (one per request whose pages are
     * full), after evicting that many when fewer are available; whether they are available.
     */
    private boolean checkDecodeMem() {
        int pages = 0;
        for (int i = 0, n = running.size(); i < n; i++) {
            Request r = running.request(i);
            if (r != chunked && r.blockTokens <= running.computed[i]) {
                pages++;
            }
        }
        if (radix.availablePages() < pages) {
            radix.evict(pages);
        }
        return radix.availablePages() >= pages;
    }

    /** {@code retract_decode}: retracts requests until the rest's next step fits; sets the ratio from the survivors. */
    private void retract(long nowUs) {
        boolean first = true;
        while (first || !checkDecodeMem()) {
            int decoding = running.size() - (chunked == null ? 0 : 1);
            if (decoding <= 1) {
                break;
            }
            first = false;
            Request r = running.remove(victim());
            radix.release(r);
            r.computedTokens = 0;
            r.preemptions++;
            r.state = Request.State.QUEUED;
            waitQueue.add(r);
            listener.preempted(r, nowUs);
            long tokens = (long) (decoding - 1) * SglangConfig.RETRACT_DECODE_STEPS;
            if (radix.availablePages() * pageSize < tokens) {
                radix.evict(radix.pagesFor(tokens));
            }
        }
        long generated = 0;
        long maxNew = 0;
        int survivors = 0;
        for (int i = 0, n = running.size(); i < n; i++) {
            Request r = running.request(i);
            if (r != chunked) {
                generated += running.generated[i];
                maxNew += maxNewTokens(r);
                survivors++;
            }
        }
        ratio = maxNew == 0 ? 1.0 : Math.min(1.0, (double) (generated
                + (long) SglangConfig.RETRACT_DECODE_STEPS * survivors) / maxNew);
    }

    /** The request to retract: the fewest output tokens, then the longest prompt, then the latest in the batch. */
    private int victim() {
        int v = -1;
        for (int i = 0, n = running.size(); i < n; i++) {
            Request r = running.request(i);
            if (r == chunked) {
                continue;
            }
            if (v < 0 || running.generated[i] < running.generated[v] || (running.generated[i] == running.generated[v]
                    && r.inputTokens() >= running.request(v).inputTokens())) {
                v = i;
            }
        }
        return v;
    }

    /** {@code calc_priority}: reorders the wait queue by the schedule policy (fcfs leaves it). */
    private void order() {
        if (waitQueue.isEmpty() || waitQueue.peek().kvResident) {
            return;
        }
        // without a tree, the cache-aware policies are fcfs (SchedulePolicy._validate_and_adjust_policy)
        SglangConfig.Policy policy = radix.matching() || sg.policy() == SglangConfig.Policy.LOF
                || sg.policy() == SglangConfig.Policy.RANDOM ? sg.policy() : SglangConfig.Policy.FCFS;
        switch (policy) {
            case FCFS -> {
            }
            case LPM -> {
                if (waitQueue.size() <= LPM_FALLBACK_QUEUE) {
                    drain();
                    sortByLongestPrefix();
                    refill();
                }
            }
            case DFS_WEIGHT -> {
                drain();
                radix.dfsWeightOrder(sorting);
                refill();
            }
            case LOF -> {
                drain();
                for (int i = 0; i < sorting.size(); i++) {
                    sortKeys[i] = pack(Integer.MAX_VALUE - maxNewTokens(sorting.get(i)), i);
                }
                applyKeys();
                refill();
            }
            case RANDOM -> {
                drain();
                java.util.Collections.shuffle(sorting, random);
                refill();
            }
        }
    }

    /** {@code lpm}: longest match first; short matches sharing their first 32 tokens with one ahead last (stable). */
    private void sortByLongestPrefix() {
        int duplicatePages = (IN_BATCH_PREFIX_TOKENS + pageSize - 1) / pageSize;
        inBatchPrefixes.clear();
        for (int i = 0; i < sorting.size(); i++) {
            Request r = sorting.get(i);
            int matched = radix.match(r, radix.maxPrefixPages(r)) * pageSize;
            boolean deprioritized = matched <= IN_BATCH_PREFIX_TOKENS && r.numTokens() >= duplicatePages * pageSize
                    && !inBatchPrefixes.add(r.blockHash(duplicatePages - 1, pageSize));
            sortKeys[i] = pack(deprioritized ? Integer.MAX_VALUE : Integer.MAX_VALUE - 1 - matched, i);
        }
        applyKeys();
    }

    /** A sort key: {@code primary} (ascending) then the position (so equal keys keep their order). */
    private static long pack(int primary, int index) {
        return ((long) primary << 31) | index;
    }

    /** Reorders {@link #sorting} by the keys {@link #pack}ed into {@code sortKeys}. */
    private void applyKeys() {
        int n = sorting.size();
        Arrays.sort(sortKeys, 0, n);
        Request[] order = new Request[n];
        for (int i = 0; i < n; i++) {
            order[i] = sorting.get((int) (sortKeys[i] & Integer.MAX_VALUE));
        }
        for (int i = 0; i < n; i++) {
            sorting.set(i, order[i]);
        }
    }

    private void drain() {
        sorting.clear();
        waitQueue.drain(sorting::add);
        if (sortKeys.length < sorting.size()) {
            sortKeys = new long[Math.max(sorting.size(), sortKeys.length * 2)];
        }
    }

    private void refill() {
        for (Request r : sorting) {
            waitQueue.add(r);
        }
        sorting.clear();
    }

    /** Tokens the running requests (the chunked one aside) are assumed to still generate, times the ratio. */
    private double runningReservation() {
        double reserved = 0;
        for (int i = 0, n = running.size(); i < n; i++) {
            Request r = running.request(i);
            if (r != chunked) {
                reserved += clippedRemaining(r, running.generated[i]) * ratio;
            }
        }
        return reserved;
    }

    /** {@code rem_total_tokens}: the pool's free tokens (available and evictable) less {@code reserved}. */
    private double remTotal(double reserved) {
        return (double) kv.freeBlocks() * pageSize - reserved;
    }

    /**
     * {@code r}'s {@code max_new_tokens} as SGLang holds it: its budget (its output when it has none), clipped so that
     * prompt and output stay within the request limit ({@code TokenizerManager._validate_one_request} and the
     * scheduler's {@code max_req_len - len(input_ids) - 1}, sgl-project/sglang
     * {@code python/sglang/srt/managers/scheduler.py}; the limit is {@code max_model_len}, at most the pool's tokens - 1).
     */
    private int maxNewTokens(Request r) {
        int budget = r.maxOutputTokens() > 0 ? r.maxOutputTokens() : r.targetOutputTokens();
        int limit = config.maxModelLen();
        return limit > 0 ? Math.max(0, Math.min(budget, limit - r.inputTokens() - 1)) : budget;
    }

    /** {@code min(max(max_new - generated, 0), 4096)}: the output tokens estimates count for {@code r}. */
    private int clippedRemaining(Request r, int generated) {
        return Math.min(Math.max(maxNewTokens(r) - generated, 0), SglangConfig.CLIP_MAX_NEW_TOKENS);
    }

    private int floorPage(int tokens) {
        return tokens / pageSize * pageSize;
    }

    private int ceilPage(int tokens) {
        return (tokens + pageSize - 1) / pageSize * pageSize;
    }

    private int slotOf(Request r) {
        for (int i = 0, n = running.size(); i < n; i++) {
            if (running.request(i) == r) {
                return i;
            }
        }
        return -1;
    }
}
