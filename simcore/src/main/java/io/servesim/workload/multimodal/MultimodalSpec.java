package io.servesim.workload.multimodal;

import io.servesim.engine.MediaItems;
import io.servesim.engine.TokenSequence;
import io.servesim.rng.PartitionedRng;
import io.servesim.workload.dist.DistributionSpec;
import java.util.SplittableRandom;

/**
 * A multimodal client's user messages ({@code clients[].multimodal}, BLIS workload spec v2 {@code MultimodalSpec},
 * {@code sim/workload/spec.go} and {@code GenerateMultimodalTokens} in {@code sim/workload/multimodal.go} at
 * inference-sim/inference-sim@f90a1e3a): text tokens, then image, audio and video items, each modality's item count and
 * each item's tokens drawn from its own distribution, in BLIS's order (text; image count, then each image's tokens;
 * audio; video). The message is their sum, at least 1 token (BLIS's minimum). It replaces the client's
 * {@code input_distribution}.
 *
 * <p>Each item is content of its own (its segment of the prompt has an id of its own), as vLLM's prefix caching keys a
 * block holding an item's placeholder tokens by the item's content hash ({@code _gen_mm_extra_hash_keys} in
 * {@code vllm/v1/core/kv_cache_utils.py} at vllm-project/vllm@bbf906a8): two items are never one cache entry unless
 * they are the same item, as when a multi-turn session's history carries a previous turn's items again. The items'
 * positions and ids go with the request ({@link Message#items}), so the engine runs the encoder for them
 * ({@code engine.EncoderInputs}).
 *
 * @param text  text tokens of a message, or null for none
 * @param image images of a message, or null for none
 * @param audio audio clips of a message, or null for none
 * @param video videos of a message, or null for none
 */
public record MultimodalSpec(DistributionSpec text, Modality image, Modality audio, Modality video) {
    /**
     * One modality: how many items a message holds and the tokens of each.
     *
     * @param tokens tokens of one item (integers >= 1)
     * @param count  items per message (integers >= 0)
     */
    public record Modality(DistributionSpec tokens, DistributionSpec count) {
    }

    /**
     * A user message: its segments (text first, then every item) with their content ids and lengths, and how many of
     * its tokens are items'.
     */
    public record Message(long[] ids, int[] lengths, int mediaTokens) {
        /** Tokens of the message. */
        public int length() {
            int n = 0;
            for (int len : lengths) {
                n += len;
            }
            return n;
        }

        /**
         * The message's items as they sit in a prompt where the message starts at token {@code messageStart}: after
         * its text, in its order (null for a message without items).
         */
        public MediaItems items(int messageStart) {
            int n = ids.length - 1;
            if (n == 0) {
                return null;
            }
            long[] itemIds = new long[n];
            int[] starts = new int[n];
            int[] itemLengths = new int[n];
            int at = messageStart + lengths[0];
            for (int k = 0; k < n; k++) {
                itemIds[k] = ids[k + 1];
                starts[k] = at;
                itemLengths[k] = lengths[k + 1];
                at += lengths[k + 1];
            }
            return MediaItems.of(itemIds, starts, itemLengths);
        }

        /**
         * {@code before}'s segments, then this message's: a prompt whose first {@code sharedTokens} tokens other
         * requests may contain.
         */
        public TokenSequence after(TokenSequence before, int sharedTokens) {
            int n = before.segmentCount();
            long[] allIds = new long[n + ids.length];
            int[] allLengths = new int[n + ids.length];
            for (int i = 0; i < n; i++) {
                allIds[i] = before.segmentId(i);
                allLengths[i] = before.segmentLength(i);
            }
            System.arraycopy(ids, 0, allIds, n, ids.length);
            System.arraycopy(lengths, 0, allLengths, n, lengths.length);
            return TokenSequence.ofSegments(allIds, allLengths, sharedTokens);
        }
    }

    /** Tokens of the largest item a message can hold (0 when no modality can send an item). */
    public int largestItemTokens() {
        int largest = 0;
        for (Modality m : new Modality[] {image, audio, video}) {
            if (m != null && m.count().max() >= 1) {
                largest = Math.max(largest, (int) Math.min(Integer.MAX_VALUE, Math.floor(m.tokens().max())));
            }
        }
        return largest;
    }

    /** Whether a message can hold audio or video items (not only images). */
    public boolean sendsAudioOrVideo() {
        return audio != null && audio.count().max() >= 1 || video != null && video.count().max() >= 1;
    }

    /**
     * A message drawn from {@code rng}: its text is content {@code textContentId}, each item content of its own derived
     * from it.
     */
    public Message sample(SplittableRandom rng, long textContentId) {
        int textTokens = text == null ? 0 : text.sampleInt(rng);
        int images = count(image, rng);
        int[] imageTokens = tokens(image, images, rng);
        int clips = count(audio, rng);
        int[] audioTokens = tokens(audio, clips, rng);
        int videos = count(video, rng);
        int[] videoTokens = tokens(video, videos, rng);
        int items = images + clips + videos;
        long[] ids = new long[1 + items];
        int[] lengths = new int[1 + items];
        ids[0] = textContentId;
        int media = 0;
        int k = 1;
        for (int[] modality : new int[][] {imageTokens, audioTokens, videoTokens}) {
            for (int t : modality) {
                ids[k] = PartitionedRng.mix64(textContentId + k);
                lengths[k++] = t;
                media += t;
            }
        }
        lengths[0] = textTokens + media == 0 ? 1 : textTokens; // BLIS: a message has at least one token
        return new Message(ids, lengths, media);
    }

    private static int count(Modality m, SplittableRandom rng) {
        return m == null ? 0 : m.count().sampleInt(rng);
    }

    private static int[] tokens(Modality m, int items, SplittableRandom rng) {
        int[] t = new int[items];
        for (int i = 0; i < items; i++) {
            t[i] = m.tokens().sampleInt(rng);
        }
        return t;
    }
}
