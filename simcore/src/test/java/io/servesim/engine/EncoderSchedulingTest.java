package io.servesim.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.servesim.engine.encoder.EncoderBudget;
import io.servesim.kernel.EventQueue;
import io.servesim.latency.StepShape;
import java.util.Comparator;
import org.junit.jupiter.api.Test;

/**
 * The vLLM core's batch former with multimodal requests ({@link EncoderInputs}): chunks cut before an item the encoder
 * budget cannot take, items encoded once and then served from the encoder cache, references released so the cache
 * holds nothing referenced once every request is done.
 */
class EncoderSchedulingTest {
    private static final int IMAGE = 720;

    /** A batch former of {@code blocks} 16-token blocks with a budget of {@code maxBatched} tokens and the encoder. */
    private static final class Harness {
        final KvCache kv;
        final WaitQueue waitQueue;
        final RunningBatch running;
        final EncoderInputs encoder;
        final BatchFormer former;
        final StepExecution execution;
        final StepShape shape = new StepShape();
        private long nowUs;

        Harness(int blocks, int maxBatched) {
            this(blocks, maxBatched, IMAGE, null);
        }

        /** With items of at most {@code largestItem} tokens and the wait-queue (and victim) order {@code order}. */
        Harness(int blocks, int maxBatched, int largestItem, Comparator<Request> order) {
            waitQueue = new WaitQueue(order);
            EngineConfig config = new EngineConfig(16, maxBatched, 0, 0, 16, blocks, true)
                    .withEncoder(EncoderBudget.derive(maxBatched, largestItem, 0, 0));
            kv = new KvCache(blocks, 16, true);
            running = new RunningBatch(16, 16, true);
            encoder = new EncoderInputs(config.encoder());
            former = new BatchFormer(config, kv, waitQueue, running, order, null, encoder, new BatchFormer.Listener() {
                @Override
                public void preempted(Request r, long now) {
                }

                @Override
                public void admitted(Request r, long now) {
                }

                @Override
                public void neverFits(Request r, long now) {
                }

                @Override
                public void headOfLineBlocked(Request r, long now) {
                }

                @Override
                public void reloading(Request r, long readyUs, long now) {
                }
            });
            execution = new StepExecution(0, 0, running, r -> {
                kv.release(r);
                former.releaseEncoderInputs(r);
            }, r -> 0, new EventQueue(64), new EngineObserver() {
            }, 0, 0, null);
        }

        void submit(Request r) {
            r.state = Request.State.QUEUED;
            waitQueue.add(r);
        }

        StepShape step() {
            shape.clear();
            former.form(nowUs, shape);
            nowUs += 1;
            execution.executeAndComplete(nowUs);
            return shape;
        }
    }

    /**
     * A prompt of {@code text} tokens of content {@code textId}, then one 720-token image per id in {@code images}; the
     * request generates {@code output} tokens.
     */
    private static Request request(long id, long textId, int text, int output, long... images) {
        return withImages(id, textId, text, IMAGE, output, 0, images);
    }

    /** As above with images of {@code image} tokens and a priority. */
    private static Request withImages(long id, long textId, int text, int image, int output, double priority,
                                      long... images) {
        long[] ids = new long[1 + images.length];
        int[] lengths = new int[1 + images.length];
        long[] itemIds = new long[images.length];
        int[] starts = new int[images.length];
        int[] itemLengths = new int[images.length];
        ids[0] = textId;
        lengths[0] = text;
        for (int k = 0; k < images.length; k++) {
            ids[k + 1] = images[k];
            lengths[k + 1] = image;
            itemIds[k] = images[k];
            starts[k] = text + k * image;
            itemLengths[k] = image;
        }
        Request r = new Request(id, RequestTags.DEFAULT, TokenSequence.ofSegments(ids, lengths), output, 0, 0, priority,
                true);
        r.setMedia(MediaItems.of(itemIds, starts, itemLengths));
        return r;
    }

    /**
     * Budget 2,048 tokens (max_num_batched_tokens; the 720-token image is smaller), cache 2,048. A prompt of 100 text
     * tokens and three images at [100, 820), [820, 1540), [1540, 2260): the first chunk wants 2,048 tokens, reaching all
     * three; the first two fit the encoder budget (1,440), the third (720 > 608 left) does not, so the chunk stops before
     * it: 1,540 tokens, two items. The second chunk (the 720 tokens left of the 2,260) encodes the third: the cache's 608 free tokens are short,
     * so the oldest unreferenced output (the first image, freed once the first chunk computed past it) is evicted.
     */
    @Test
    void aChunkStopsBeforeAnItemTheEncoderBudgetCannotTake() {
        Harness h = new Harness(1000, 2048);
        h.submit(request(1, 11, 100, 2, 21, 22, 23));
        StepShape first = h.step();
        assertEquals(1540, first.prefillTokens());
        assertEquals(2, first.encoderItems());
        assertEquals(1440, first.encoderTokens());
        StepShape second = h.step();
        assertEquals(720, second.prefillTokens());
        assertEquals(1, second.encoderItems());
        assertEquals(720, second.encoderTokens());
        assertEquals(1, h.encoder.evictions());
        assertEquals(3, h.encoder.encodedItems());
    }

    /**
     * Two requests with other text before the same image (content 21): the second's prefix differs, so the image's KV is
     * not cached, but its encoder output is (unreferenced since the first finished, not evicted: nothing needed the
     * room), so the second encodes nothing: one cache hit. Once both are done the cache holds no referenced token.
     */
    @Test
    void anItemAlreadyEncodedIsServedFromTheEncoderCache() {
        Harness h = new Harness(1000, 2048);
        h.submit(request(1, 11, 100, 1, 21));
        StepShape first = h.step();
        assertEquals(1, first.encoderItems());
        while (!h.running.isEmpty()) {
            h.step();
        }
        h.submit(request(2, 12, 50, 1, 21));
        StepShape second = h.step();
        assertEquals(770, second.prefillTokens());
        assertEquals(0, second.encoderItems());
        assertEquals(1, h.encoder.cacheHits());
        while (!h.running.isEmpty()) {
            h.step();
        }
        h.step();
        assertEquals(h.encoder.cacheTokens(), h.encoder.unreferencedTokens());
    }

    /**
     * Token budget 1,000, so the encoder budget and cache are max(1,000, 720) = 1,000. The first request (10 text tokens,
     * an image at [10, 730)) is admitted whole and encodes its image: 730 tokens, 280 encoder tokens left. The second
     * (the same shape, another image) gets the 270 tokens left, which reach its image; 720 > 280, so it computes only its
     * 10 text tokens before the image, as vLLM schedules the decoder tokens just before an item it cannot encode.
     */
    @Test
    void aWaitingRequestComputesOnlyTheTokensBeforeAnItemTheBudgetCannotTake() {
        Harness h = new Harness(1000, 1000);
        h.submit(request(1, 11, 10, 1, 21));
        h.submit(request(2, 12, 10, 1, 22));
        StepShape first = h.step();
        assertEquals(2, first.prefillSeqs());
        assertEquals(730 + 10, first.prefillTokens());
        assertEquals(1, first.encoderItems());
    }

    /**
     * A victim scheduled earlier in the step gives its encoder work back. Token budget 101, images of 100 tokens (encoder
     * budget and cache max(101, 100) = 101), 15 blocks of 16 tokens, the higher priority first (and the lower the
     * victim). A (priority 0: 10 text tokens, images at [10, 110) and [110, 210)) runs alone: step 1 computes [0, 101)
     * and encodes the first image (7 blocks); step 2 stops A at 110 (9 tokens: the second image does not fit the cache
     * the first still holds) and admits B (priority 9, 16 tokens, 1 block). Step 3: A's chunk [110, 210) encodes the
     * second image and takes the last 7 free blocks (14 in all); B's decode (the 1 token of budget left) then needs a
     * 2nd block, none is free, and the victim is A, scheduled before it: A is preempted, its image is not encoded after
     * all (its cache entry dropped, nothing computed it), and the step is B's decode alone. Readmitted after B (its
     * prefix hit reaching past the first image but not the second's end), A encodes the second image again: 2 items in
     * all, and the only cache hit stays step 2's (the first image found by its second chunk).
     */
    @Test
    void aVictimScheduledEarlierInTheStepGivesItsEncoderWorkBack() {
        Comparator<Request> byPriority = Comparator.comparingDouble((Request r) -> -r.priority())
                .thenComparingLong(Request::id);
        Harness h = new Harness(15, 101, 100, byPriority);
        Request a = withImages(1, 11, 10, 100, 5, 0, 21, 22);
        h.submit(a);
        assertEquals(1, h.step().encoderItems());
        Request b = withImages(2, 12, 16, 100, 50, 9);
        h.submit(b);
        StepShape second = h.step();
        assertEquals(9 + 16, second.prefillTokens());
        assertEquals(0, second.encoderItems());
        StepShape third = h.step();
        assertEquals(Request.State.QUEUED, a.state);
        assertEquals(0, third.prefillSeqs());
        assertEquals(1, third.decodeSeqs());
        assertEquals(0, third.encoderItems());
        assertEquals(1, h.encoder.encodedItems());
        assertEquals(h.encoder.cacheTokens(), h.encoder.unreferencedTokens(), "A's references went with it");
        while (!h.running.isEmpty() || !h.waitQueue.isEmpty()) {
            h.step();
        }
        assertEquals(2, h.encoder.encodedItems(), "the dropped image is encoded when A runs again");
        assertEquals(1, h.encoder.cacheHits(), "and not found in the cache");
    }
}
