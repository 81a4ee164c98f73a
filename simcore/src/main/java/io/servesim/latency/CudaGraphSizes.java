package io.servesim.latency;

/**
 * The token counts vLLM captures CUDA graphs for by default, and the one a step is padded to. vLLM's
 * {@code VllmConfig._set_cudagraph_sizes} ({@code vllm/config/vllm.py}; vLLM 0.11 and later, without speculative
 * decoding): the sizes are 1, 2, 4, the multiples of 8 below 256, then the multiples of 16 from 256, up to
 * min(max_num_seqs x 2, 512, max_num_batched_tokens). At runtime the CUDA-graph dispatcher pads a step of n tokens to
 * the smallest size at least n; a step of more tokens than the largest runs eagerly, without a graph and without
 * padding ({@code vllm/v1/cudagraph_dispatcher.py}).
 */
public final class CudaGraphSizes {
    /** Returned by {@link #paddedTokens} for a step too large for any graph (vLLM's {@code CUDAGraphMode.NONE}). */
    public static final long EAGER = -1;
    private final long largest;

    private CudaGraphSizes(long largest) {
        this.largest = largest;
    }

    /** vLLM's default sizes for an engine of {@code maxNumSeqs} seats and {@code maxNumBatchedTokens} per step. */
    public static CudaGraphSizes vllmDefault(int maxNumSeqs, int maxNumBatchedTokens) {
        if (maxNumSeqs < 1 || maxNumBatchedTokens < 1) {
            throw new IllegalArgumentException("max_num_seqs and max_num_batched_tokens must be positive, were "
                    + maxNumSeqs + " and " + maxNumBatchedTokens);
        }
        long top = Math.min(Math.min(2L * maxNumSeqs, 512), maxNumBatchedTokens);
        long largest;
        if (top < 8) {
            largest = top >= 4 ? 4 : Math.min(top, 2);
        } else if (top < 256) {
            largest = Math.min(248, top / 8 * 8);
        } else {
            largest = 256 + (top - 256) / 16 * 16;
        }
        return new CudaGraphSizes(largest);
    }

    /** The largest captured size. */
    public long largest() {
        return largest;
    }

    /**
     * The captured size a step of {@code tokens} (at least 1) runs at: the smallest size at least {@code tokens}, or
     * {@link #EAGER} above the largest.
     */
    public long paddedTokens(long tokens) {
        if (tokens > largest) {
            return EAGER;
        }
        long size;
        if (tokens <= 4) {
            size = tokens <= 2 ? tokens : 4;
        } else if (tokens <= 248) {
            size = (tokens + 7) / 8 * 8;
        } else {
            size = Math.max(256, (tokens + 15) / 16 * 16);
        }
        return size;
    }
}
