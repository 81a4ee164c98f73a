package io.servesim.latency;

import java.util.Arrays;
import java.util.Locale;

/**
 * NCCL collectives timed between a fixed number of GPUs over their link ({@code link.measured_collectives} of a GPU
 * row): where a group of exactly that size runs within one node, the measured time replaces NCCL's tuner model in
 * {@link AllReduce} and {@link GatherScatter}.
 *
 * <p>Why: NCCL's latency model prices a small collective at its {@code baseLat + hwLat}, 7.6 us for one PCIe hop under
 * LL, while two RTX PRO 6000s over PCIe Gen5 x16 measure 10.5 us for a 4 KiB all-gather, 9.8 for a reduce-scatter and
 * 12.7 for an all-reduce (casys-kaist/LLMServingSim@1b2cc02d {@code profiler/perf/RTXPRO6000/hardware.yaml}: vLLM's
 * {@code PyNcclCommunicator}, CUDA-graphed, the slowest rank's time, median of three runs of five trials). An
 * expert-parallel step pays two such collectives per MoE layer, 96 a step for a 48-layer model.
 *
 * <p>Sizes follow that profiler's convention, nccl-tests' too: an all-reduce's input, an all-gather's local input (one
 * rank's chunk of the gathered buffer), a reduce-scatter's local output (one rank's chunk). Each collective's time is
 * read from its samples as {@link PiecewiseLinear} reads a profile: linear between samples, the smallest sample's time
 * below it; above the largest, along the last two samples' slope, but never faster than the link carries the extra
 * bytes (a collective moves (n - 1) chunks, an all-reduce 2 (n - 1) / n of its input, over each rank's link).
 */
public final class MeasuredCollectives {
    /** The collectives a table may time, by the key of their times in a GPU row. */
    public enum Collective {
        ALL_GATHER("all_gather_us"), REDUCE_SCATTER("reduce_scatter_us"), ALL_REDUCE("all_reduce_us");

        private final String configKey;

        Collective(String configKey) {
            this.configKey = configKey;
        }

        public String configKey() {
            return configKey;
        }

        /**
         * The bus bandwidth a sample reaches, bytes per us, nccl-tests' {@code busbw}: a chunk of an all-gather or
         * reduce-scatter moves (n - 1) chunks over each rank's link, an all-reduce of S bytes 2 (n - 1) / n x S.
         */
        public double busBytesPerUs(double sampleBytes, double us, int ranks) {
            double moved = this == ALL_REDUCE ? 2.0 * (ranks - 1) / ranks * sampleBytes : (ranks - 1) * sampleBytes;
            return moved / us;
        }
    }

    /** No measurement: NCCL's model prices every collective. */
    public static final MeasuredCollectives NONE = new MeasuredCollectives();

    private final int ranks;
    private final double[] bytes;
    private final double[][] us;
    private final PiecewiseLinear[] curves;
    /** Per collective, the fewest microseconds a sample byte more can add: the link's rate (extrapolation's bound). */
    private final double[] minUsPerByte;

    private MeasuredCollectives() {
        this.ranks = 0;
        this.bytes = new double[0];
        this.us = new double[Collective.values().length][];
        this.curves = new PiecewiseLinear[Collective.values().length];
        this.minUsPerByte = new double[Collective.values().length];
    }

    /**
     * @param ranks    GPUs the collectives ran over (at least 2)
     * @param bytes    the sample sizes, strictly increasing, at least two (see the class comment for what each
     *                 collective's size is)
     * @param us       per {@link Collective} (by ordinal), the measured times at {@code bytes}, or null when not
     *                 measured; at least one
     * @param linkGBps the link's rate per direction, GB/s: above the largest size no collective runs faster
     */
    public MeasuredCollectives(int ranks, double[] bytes, double[][] us, double linkGBps) {
        if (ranks < 2 || bytes.length < 2 || us.length != Collective.values().length || !(linkGBps > 0)) {
            throw new IllegalArgumentException("measured collectives need 2 ranks or more, 2 sizes or more and a link,"
                    + " got " + ranks + " ranks, " + bytes.length + " sizes");
        }
        this.ranks = ranks;
        this.bytes = bytes.clone();
        this.us = new double[us.length][];
        this.curves = new PiecewiseLinear[us.length];
        this.minUsPerByte = new double[us.length];
        boolean any = false;
        for (int c = 0; c < us.length; c++) {
            if (us[c] != null) {
                if (us[c].length != bytes.length) {
                    throw new IllegalArgumentException(Collective.values()[c].configKey() + " has " + us[c].length
                            + " times for " + bytes.length + " sizes");
                }
                this.us[c] = us[c].clone();
                this.curves[c] = new PiecewiseLinear(bytes, us[c]);
                this.minUsPerByte[c] = Collective.values()[c].busBytesPerUs(1, 1, ranks) / (linkGBps * 1e3);
                any = true;
            }
        }
        if (!any) {
            throw new IllegalArgumentException("measured collectives time no collective");
        }
    }

    /** Whether {@code collective} was measured over exactly {@code gpus} ranks. */
    public boolean covers(Collective collective, int gpus) {
        return gpus == ranks && curves[collective.ordinal()] != null;
    }

    /** Microseconds of {@code collective} at a sample size of {@code sampleBytes}; only where {@link #covers}. */
    public double timeUs(Collective collective, double sampleBytes) {
        PiecewiseLinear curve = curves[collective.ordinal()];
        double largest = bytes[bytes.length - 1];
        if (sampleBytes <= largest) {
            return curve.at(sampleBytes);
        }
        double before = bytes[bytes.length - 2];
        double slope = (curve.at(largest) - curve.at(before)) / (largest - before);
        return curve.at(largest) + (sampleBytes - largest) * Math.max(slope, minUsPerByte[collective.ordinal()]);
    }

    /** GPUs the collectives ran over; 0 for {@link #NONE}. */
    public int ranks() {
        return ranks;
    }

    /** For summaries: {@code all-gather, reduce-scatter, all-reduce of 2 GPUs timed from 4 KiB to 20 MiB}. */
    public String describe() {
        if (ranks == 0) {
            return "";
        }
        StringBuilder names = new StringBuilder();
        for (Collective c : Collective.values()) {
            if (curves[c.ordinal()] != null) {
                names.append(names.length() == 0 ? "" : ", ").append(c.configKey().replace("_us", "").replace('_', '-'));
            }
        }
        return String.format(Locale.ROOT, "%s of %d GPUs timed from %s to %s", names, ranks, size(bytes[0]),
                size(bytes[bytes.length - 1]));
    }

    private static String size(double b) {
        return b >= 1 << 20 ? String.format(Locale.ROOT, "%.0f MiB", b / (1 << 20))
                : b >= 1 << 10 ? String.format(Locale.ROOT, "%.0f KiB", b / (1 << 10)) : String.format(Locale.ROOT, "%.0f B", b);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof MeasuredCollectives m && ranks == m.ranks && Arrays.equals(bytes, m.bytes)
                && Arrays.deepEquals(us, m.us) && Arrays.equals(minUsPerByte, m.minUsPerByte);
    }

    @Override
    public int hashCode() {
        return 31 * (31 * ranks + Arrays.hashCode(bytes)) + Arrays.deepHashCode(us);
    }
}
