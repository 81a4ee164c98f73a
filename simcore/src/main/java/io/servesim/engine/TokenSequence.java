package io.servesim.engine;

import io.servesim.rng.PartitionedRng;
import java.util.Arrays;

/**
 * The content of a prompt, as far as prefix caching can tell. Two forms:
 * <ul>
 *   <li>explicit token ids (real traces such as vLLM benchmark JSONL carry them), or</li>
 *   <li>a list of segments {@code (contentId, length)}: token {@code k} of a segment is identified by
 *       {@code (contentId, k)}. A shared system prompt is a segment whose id is the prefix group's,
 *       a unique suffix a segment with a per-request id, a Mooncake {@code hash_id} one 512-token
 *       segment, an accumulated conversation the previous turns' segments followed by new ones.</li>
 * </ul>
 * Equal content gives equal {@link #rangeHash} values, which is all the KV cache's chained block
 * hashes need (vLLM v1 {@code kv_cache_utils.hash_block_tokens}: hash(parent hash, block tokens)).
 */
public final class TokenSequence {
    private final int[] tokenIds;
    private final long[] segmentIds;
    private final int[] segmentEnds;
    private final int length;
    private final int sharedTokens;

    private TokenSequence(int[] tokenIds, long[] segmentIds, int[] segmentEnds, int length, int sharedTokens) {
        this.tokenIds = tokenIds;
        this.segmentIds = segmentIds;
        this.segmentEnds = segmentEnds;
        this.length = length;
        this.sharedTokens = sharedTokens;
    }

    /** A prompt given by explicit token ids (the array is not copied; callers must not mutate it). */
    public static TokenSequence ofTokenIds(int[] tokenIds) {
        return new TokenSequence(tokenIds, null, null, tokenIds.length, tokenIds.length);
    }

    /** A prompt made of segments; {@code lengths[i]} tokens of content {@code ids[i]}. Zero-length segments are skipped. */
    public static TokenSequence ofSegments(long[] ids, int[] lengths) {
        return ofSegments(ids, lengths, Integer.MAX_VALUE);
    }

    /**
     * As {@link #ofSegments(long[], int[])}, declaring that only the first {@code sharedTokens}
     * tokens can occur in any other request (the rest is content no other request references).
     */
    public static TokenSequence ofSegments(long[] ids, int[] lengths, int sharedTokens) {
        if (ids.length != lengths.length) {
            throw new IllegalArgumentException("ids and lengths differ in size");
        }
        int n = 0;
        for (int len : lengths) {
            if (len < 0) {
                throw new IllegalArgumentException("negative segment length " + len);
            }
            if (len > 0) {
                n++;
            }
        }
        long[] segIds = new long[n];
        int[] ends = new int[n];
        int total = 0;
        int k = 0;
        for (int i = 0; i < ids.length; i++) {
            if (lengths[i] > 0) {
                total = Math.addExact(total, lengths[i]);
                segIds[k] = ids[i];
                ends[k] = total;
                k++;
            }
        }
        return new TokenSequence(null, segIds, ends, total, Math.min(total, Math.max(0, sharedTokens)));
    }

    /** One segment of {@code length} tokens of content {@code id} that no other request contains. */
    public static TokenSequence unique(long id, int length) {
        return ofSegments(new long[] {id}, new int[] {length}, 0);
    }

    /** A shared prefix of {@code prefixLength} tokens of {@code prefixId}, then a suffix no other request contains. */
    public static TokenSequence prefixed(long prefixId, int prefixLength, long suffixId, int suffixLength) {
        return ofSegments(new long[] {prefixId, suffixId}, new int[] {prefixLength, suffixLength}, prefixLength);
    }

    public int length() {
        return length;
    }

    /**
     * Leading tokens that other requests may also contain. Blocks past this point hold content no
     * other request can hit, so the KV cache need not index them unless this request itself may
     * reuse them (preemption) or a later turn repeats them ({@link Request#outputReusable()}).
     */
    public int sharedTokens() {
        return sharedTokens;
    }

    public boolean hasTokenIds() {
        return tokenIds != null;
    }

    /** Number of segments (0 for the explicit-id form). */
    public int segmentCount() {
        return segmentIds == null ? 0 : segmentIds.length;
    }

    public long segmentId(int i) {
        return segmentIds[i];
    }

    public int segmentLength(int i) {
        return segmentEnds[i] - (i == 0 ? 0 : segmentEnds[i - 1]);
    }

    /**
     * A hash of the content of tokens {@code [from, to)}; equal content gives equal hashes.
     * Folds one piece per overlapped segment (its id, offset and length), or the ids themselves.
     */
    public long rangeHash(long seedHash, int from, int to) {
        if (from < 0 || to > length || from > to) {
            throw new IndexOutOfBoundsException("[" + from + ", " + to + ") of " + length);
        }
        long h = seedHash;
        if (tokenIds != null) {
            for (int i = from; i < to; i++) {
                h = PartitionedRng.mix64(h * 31 + tokenIds[i]);
            }
            return h;
        }
        int seg = segmentAt(from);
        int pos = from;
        while (pos < to) {
            int segStart = seg == 0 ? 0 : segmentEnds[seg - 1];
            int end = Math.min(to, segmentEnds[seg]);
            h = pieceHash(h, segmentIds[seg], pos - segStart, end - pos);
            pos = end;
            seg++;
        }
        return h;
    }

    /** Folds the piece "{@code count} tokens of content {@code contentId} from offset {@code offset}" into {@code h}. */
    public static long pieceHash(long h, long contentId, int offset, int count) {
        long piece = PartitionedRng.mix64(contentId ^ PartitionedRng.mix64(((long) offset << 32) | count));
        return PartitionedRng.mix64(h * 31 + piece);
    }

    private int segmentAt(int tokenIndex) {
        if (segmentEnds.length <= 8) {
            int i = 0;
            while (segmentEnds[i] <= tokenIndex) {
                i++;
            }
            return i;
        }
        int i = Arrays.binarySearch(segmentEnds, tokenIndex);
        // segmentEnds are exclusive ends: token t lies in the first segment whose end > t.
        return i >= 0 ? i + 1 : -i - 1;
    }
}
