package io.servesim.engine;

import io.servesim.kernel.EventQueue;
import io.servesim.latency.StepShape;
import java.util.ArrayList;
import java.util.List;

/** The SGLang core's scheduler, radix tree and step execution without an engine around them (tests). */
final class SglangHarness {
    final KvCache kv;
    final RadixCache radix;
    final WaitQueue waitQueue = new WaitQueue(null);
    final RunningBatch running;
    final SglangScheduler scheduler;
    final StepExecution execution;
    final StepShape shape = new StepShape();
    final List<Request> admitted = new ArrayList<>();
    final List<Request> preempted = new ArrayList<>();
    final List<Request> neverFits = new ArrayList<>();
    private long nowUs;

    /** A harness of {@code pages} pages of {@code pageSize} tokens, at most {@code maxRunning} running, with {@code sg}. */
    SglangHarness(int pages, int pageSize, int maxRunning, SglangConfig sg) {
        EngineConfig config = new EngineConfig(maxRunning, 2048, 0, 0, pageSize, pages, true).withSglang(sg);
        kv = new KvCache(pages, pageSize, false);
        radix = new RadixCache(kv, true);
        running = new RunningBatch(16, pageSize, false);
        scheduler = new SglangScheduler(0, config, kv, radix, waitQueue, running, null, new BatchFormer.Listener() {
            @Override
            public void preempted(Request r, long now) {
                preempted.add(r);
            }

            @Override
            public void admitted(Request r, long now) {
                admitted.add(r);
            }

            @Override
            public void neverFits(Request r, long now) {
                neverFits.add(r);
            }

            @Override
            public void headOfLineBlocked(Request r, long now) {
            }

            @Override
            public void reloading(Request r, long readyUs, long now) {
            }
        });
        execution = new StepExecution(0, 0, running, radix::cacheFinished, r -> r.registeredBlocks, new EventQueue(64),
                new EngineObserver() {
        }, 0, 0, null);
    }

    /** A request of {@code prompt} tokens generating {@code output} ({@code max_tokens} not given). */
    static Request request(long id, TokenSequence prompt, int output) {
        return new Request(id, RequestTags.DEFAULT, prompt, output, 0, 0, 0, true);
    }

    static Request unique(long id, int prompt, int output) {
        return request(id, TokenSequence.unique(1000 + id, prompt), output);
    }

    void submit(Request r) {
        r.state = Request.State.QUEUED;
        waitQueue.add(r);
    }

    /** Forms and executes one step (1 us long); returns its shape. */
    StepShape step() {
        shape.clear();
        scheduler.form(nowUs, shape);
        nowUs += 1;
        execution.executeAndComplete(nowUs);
        radix.checkInvariants();
        kv.checkInvariants();
        return shape;
    }

    /**
     * Puts {@code r}, {@code generated} output tokens in, into the running batch as a decoding request: its prompt in
     * the tree and locked, its output's KV but the last token's in pages of its own.
     */
    void placeDecoding(Request r, int generated) {
        r.generatedTokens = generated;
        radix.match(r, 0);
        radix.lockMatch(r, 0);
        int computed = r.numTokens() - 1;
        if (!radix.allocateOwn(r, computed)) {
            throw new IllegalStateException("no room for " + r);
        }
        radix.cacheUnfinished(r, r.inputTokens());
        r.computedTokens = computed;
        r.state = Request.State.RUNNING;
        running.add(r, 0);
    }

    int slotOf(Request r) {
        for (int i = 0; i < running.size(); i++) {
            if (running.request(i) == r) {
                return i;
            }
        }
        return -1;
    }
}
