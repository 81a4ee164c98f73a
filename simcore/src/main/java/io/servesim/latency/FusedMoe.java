package io.servesim.latency;

/**
 * The routed experts of one MoE layer on one GPU, priced as vLLM's fused MoE runs them (vllm-project/vllm @ 000d1458,
 * {@code vllm/model_executor/layers/fused_moe/fused_moe.py}, {@code fused_experts_impl} and {@code TritonExperts.apply}):
 * {@code topk_softmax} picks each token's k experts, {@code moe_align_block_size} sorts the token-expert pairs by expert
 * and pads every active expert's rows to a multiple of {@code BLOCK_SIZE_M}, then one grouped GEMM kernel per weight
 * ({@code fused_moe_kernel} over w1, the gate/up projection, then over w2, the down projection, with
 * {@code silu_and_mul} between them) runs a grid of {@code BLOCK_SIZE_M x BLOCK_SIZE_N} tiles over every active expert's
 * padded rows at once, and {@code moe_sum} adds each token's k outputs. Per weight of N x K elements per expert and rank,
 * with T tokens entering the kernel, R token-expert pairs landing on this GPU's experts and A of them active:
 * <pre>
 * padded rows = A x ceil(R / A / blockM) x blockM                 (moe_align_block_size)
 * compute_us  = ceil(padded / blockM x ceil(N / blockN) / smCount) x smCount x 2 x blockM x blockN x K
 *               / (peak x tensorEfficiency)                       (one grid, wave-quantized as {@link Gemm})
 * memory_us   = (A x N x K x weight bytes + R x (K + N) x activation bytes) / (bandwidth x memoryEfficiency)
 * kernel_us   = max(compute_us, memory_us) + kernelLaunch
 * layer_us    = kernel_us(w1) + kernel_us(w2) + {@link #ROUTING_KERNELS} x kernelLaunch
 * </pre>
 * Each active expert's weights are read once per step, however many blocks its rows fill. The block sizes are
 * {@code get_default_config}'s: 16 x 32 while T is at most the kernel's experts, else 64 x 64 (tuned per-device
 * config files are not modelled). {@code silu_and_mul} is one of {@link RooflineModel#OTHER_KERNELS_PER_LAYER}.
 */
final class FusedMoe {
    /** {@code get_default_config}'s tile for few tokens (M &lt;= E): BLOCK_SIZE_M 16, BLOCK_SIZE_N 32. */
    static final int[] SMALL_TILE = {16, 32};
    /** {@code get_default_config}'s tile otherwise: BLOCK_SIZE_M 64, BLOCK_SIZE_N 64. */
    static final int[] LARGE_TILE = {64, 64};
    /** Kernels of the fused MoE besides its two GEMMs and the activation: topk_softmax, moe_align_block_size, moe_sum. */
    static final int ROUTING_KERNELS = 3;

    private final int[][] weights;
    private final double weightBytesPerElement;
    private final int activationBytes;
    private final double usPerTileFlop;
    private final double usPerByte;
    private final int smCount;
    private final double launchUs;

    /**
     * @param intermediatePerRank    expert width per rank (the gate/up projection has twice it, the down projection's depth)
     * @param hidden                 the model's hidden size
     * @param weightBytesPerElement  bytes per expert weight
     * @param activationBytes        bytes per activation element
     * @param peakFlopsPerSecond     datasheet tensor peak for these weights
     * @param gpu                    the GPU (SM count, bandwidth)
     * @param constants              the cross-GPU efficiencies and per-kernel cost
     */
    FusedMoe(int intermediatePerRank, int hidden, double weightBytesPerElement, int activationBytes, double peakFlopsPerSecond,
             GpuSpec gpu, RooflineConstants constants) {
        this.weights = new int[][] {{2 * intermediatePerRank, hidden}, {hidden, intermediatePerRank}};
        this.weightBytesPerElement = weightBytesPerElement;
        this.activationBytes = activationBytes;
        this.usPerTileFlop = 1e6 / (peakFlopsPerSecond * constants.tensorEfficiency());
        this.usPerByte = 1e6 / (gpu.memoryBytesPerSecond() * constants.memoryEfficiency());
        this.smCount = gpu.smCount();
        this.launchUs = constants.kernelLaunchUs();
    }

    /**
     * Microseconds of one layer's fused MoE when {@code kernelTokens} tokens enter a kernel holding {@code localExperts}
     * experts, {@code pairs} of their token-expert pairs land on this GPU's experts, {@code active} of which (expected)
     * receive any; 0 without pairs.
     */
    double timeUs(double kernelTokens, int localExperts, double pairs, double active) {
        if (pairs <= 0 || active <= 0) {
            return 0;
        }
        int[] tile = kernelTokens <= localExperts ? SMALL_TILE : LARGE_TILE;
        double blocks = active * Math.ceil(pairs / active / tile[0]);
        double us = ROUTING_KERNELS * launchUs;
        for (int[] w : weights) {
            double tiles = blocks * Math.ceil((double) w[0] / tile[1]);
            double computeUs = 2.0 * Math.ceil(tiles / smCount) * smCount * tile[0] * tile[1] * w[1] * usPerTileFlop;
            double memoryUs = (active * w[0] * w[1] * weightBytesPerElement + pairs * (w[0] + w[1]) * activationBytes)
                    * usPerByte;
            us += Math.max(computeUs, memoryUs) + launchUs;
        }
        return us;
    }
}
