package io.servesim.latency;

/**
 * One GEMM of a layer on one GPU of a tensor-parallel group: an M x K activation times a K x N
 * weight, with M the tokens (or sequences) of the step and N, K the per-rank weight shape. Its time is
 * the roofline of two terms (NVIDIA, "Matrix Multiplication Background User's Guide",
 * docs.nvidia.com/deeplearning/performance/dl-performance-matrix-multiplication: tile and wave
 * quantization):
 * <pre>
 * compute_s = waves x smCount x 2 x tileM x tileN x K / (peak x tensorEfficiency)
 *             waves = ceil(ceil(M / tileM) x ceil(N / tileN) / smCount)
 * memory_s  = (N x K x weight bytes + M x (K + N) x activation bytes) / (bandwidth x memoryEfficiency)
 * time_s    = max(compute_s, memory_s) + kernelLaunch
 * </pre>
 * A wave is one tile per SM, each tile {@code 2 x tileM x tileN x K} FLOPs at the SM's share of the
 * peak. Like cuBLAS's heuristics, the tile shape is the one of {@link #TILES} that needs the least
 * quantized work, with {@code tileM} no taller than M rounded up to a power of two (at least 16), as
 * skinny-M kernels use for small batches.
 */
public final class Gemm {
    /** Candidate output tiles {tileM, tileN}: CUTLASS's common tensor-core threadblock shapes. */
    static final int[][] TILES = {{128, 128}, {128, 256}, {256, 128}, {64, 128}};
    /** Smallest tile height: the MMA instruction's 16 rows. */
    static final int MIN_TILE_M = 16;

    private final int n;
    private final int k;
    private final double weightBytes;
    private final double activationBytesPerRow;
    private final double usPerTileFlop;
    private final double usPerByte;
    private final int smCount;
    private final double launchUs;

    /**
     * @param n                 output columns per rank
     * @param k                 reduction depth per rank
     * @param weightBytesPerElement bytes per weight element (2 for BF16, 1 for FP8, 0.5 for 4-bit)
     * @param activationBytes   bytes per activation element
     * @param peakFlopsPerSecond datasheet tensor peak for these weights
     * @param gpu               the GPU (SM count, bandwidth)
     * @param constants         the cross-GPU efficiencies
     */
    public Gemm(int n, int k, double weightBytesPerElement, int activationBytes, double peakFlopsPerSecond, GpuSpec gpu,
                RooflineConstants constants) {
        this.n = n;
        this.k = k;
        this.weightBytes = (double) n * k * weightBytesPerElement;
        this.activationBytesPerRow = (double) (k + n) * activationBytes;
        this.usPerTileFlop = 1e6 / (peakFlopsPerSecond * constants.tensorEfficiency());
        this.usPerByte = 1e6 / (gpu.memoryBytesPerSecond() * constants.memoryEfficiency());
        this.smCount = gpu.smCount();
        this.launchUs = constants.kernelLaunchUs();
    }

    /** Time of this GEMM over {@code m} rows, in microseconds (0 for no rows: the kernel is not launched). */
    public double timeUs(long m) {
        if (m <= 0) {
            return 0;
        }
        long maxTileM = Math.max(MIN_TILE_M, Long.highestOneBit(m - 1) << 1);
        long bestTileFlops = Long.MAX_VALUE;
        for (int[] tile : TILES) {
            long tileM = Math.min(tile[0], maxTileM);
            long tiles = ceilDiv(m, tileM) * ceilDiv(n, tile[1]);
            long waveFlops = ceilDiv(tiles, smCount) * smCount * tileM * tile[1];
            bestTileFlops = Math.min(bestTileFlops, waveFlops);
        }
        double computeUs = 2.0 * bestTileFlops * k * usPerTileFlop;
        double memoryUs = (weightBytes + m * activationBytesPerRow) * usPerByte;
        return Math.max(computeUs, memoryUs) + launchUs;
    }

    /** Output columns per rank. */
    public int n() {
        return n;
    }

    /** Reduction depth per rank. */
    public int k() {
        return k;
    }

    private static long ceilDiv(long a, long b) {
        return (a + b - 1) / b;
    }
}
