package io.servesim.engine;

import java.util.Arrays;

/**
 * The image, audio and video items of a prompt: where each item's placeholder tokens start, how many there are and the
 * item's content id, in prompt order, as vLLM keeps them per request ({@code Request.mm_features}, each with its
 * {@code mm_position} offset and length and its content hash {@code identifier}; {@code vllm/v1/request.py} at
 * vllm-project/vllm@00024d314514900f361ad072af6931e403b7f589). Encoder outputs fill the placeholder positions one token
 * each, so an item's encoder tokens are its placeholder tokens.
 */
public final class MediaItems {
    private final long[] contentIds;
    private final int[] starts;
    private final int[] lengths;
    private final int tokens;
    private final int largest;

    private MediaItems(long[] contentIds, int[] starts, int[] lengths) {
        this.contentIds = contentIds;
        this.starts = starts;
        this.lengths = lengths;
        int sum = 0;
        int max = 0;
        int end = 0;
        for (int i = 0; i < lengths.length; i++) {
            if (lengths[i] < 1 || starts[i] < end) {
                throw new IllegalArgumentException("media item " + i + " at " + starts[i] + " of " + lengths[i]
                        + " tokens overlaps the one before it or is empty");
            }
            end = starts[i] + lengths[i];
            sum += lengths[i];
            max = Math.max(max, lengths[i]);
        }
        this.tokens = sum;
        this.largest = max;
    }

    /** Items {@code i} of {@code lengths[i]} tokens starting at prompt position {@code starts[i]}, in prompt order. */
    public static MediaItems of(long[] contentIds, int[] starts, int[] lengths) {
        if (contentIds.length != starts.length || starts.length != lengths.length) {
            throw new IllegalArgumentException("media items: " + contentIds.length + " ids, " + starts.length
                    + " starts, " + lengths.length + " lengths");
        }
        return new MediaItems(contentIds.clone(), starts.clone(), lengths.clone());
    }

    /** This prompt's items, then {@code later}'s (positions already in this prompt's coordinates), or either alone. */
    public static MediaItems concat(MediaItems earlier, MediaItems later) {
        if (earlier == null || earlier.count() == 0) {
            return later;
        }
        if (later == null || later.count() == 0) {
            return earlier;
        }
        int n = earlier.count();
        int m = later.count();
        long[] ids = Arrays.copyOf(earlier.contentIds, n + m);
        int[] s = Arrays.copyOf(earlier.starts, n + m);
        int[] l = Arrays.copyOf(earlier.lengths, n + m);
        System.arraycopy(later.contentIds, 0, ids, n, m);
        System.arraycopy(later.starts, 0, s, n, m);
        System.arraycopy(later.lengths, 0, l, n, m);
        return new MediaItems(ids, s, l);
    }

    public int count() { return lengths.length; }
    public long contentId(int i) { return contentIds[i]; }
    /** Prompt position of item {@code i}'s first placeholder token. */
    public int start(int i) { return starts[i]; }
    /** Placeholder (and encoder) tokens of item {@code i}. */
    public int length(int i) { return lengths[i]; }
    /** Tokens of all items. */
    public int tokens() { return tokens; }
    /** Tokens of the largest item. */
    public int largest() { return largest; }
    /** Prompt position just past the last item. */
    public int end() { return count() == 0 ? 0 : starts[count() - 1] + lengths[count() - 1]; }
}
