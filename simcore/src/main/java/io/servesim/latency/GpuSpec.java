package io.servesim.latency;

import java.util.List;

/**
 * One GPU type as the roofline model and the KV-capacity estimate see it: datasheet peaks of dense
 * tensor throughput and memory bandwidth, memory size, the number of streaming multiprocessors (over
 * which the roofline model quantizes GEMM tiles into waves) and how it talks to other GPUs
 * ({@link Interconnect}: the intra-node link, GPUs per node, the network), from which tensor-parallel
 * all-reduces ({@link AllReduce}) and P/D KV transfers are priced. Nothing here is fitted to one GPU: the roofline model applies the
 * cross-GPU efficiencies of {@link RooflineConstants} to every row. Values come from vendor datasheets
 * and whitepapers and, for H100, A100 and L40S, BLIS's {@code hardware_config.json}
 * (inference-sim/inference-sim); each entry of {@code gpus.yaml} names its {@link #source()}.
 *
 * @param name                canonical name ({@code H100}, {@code A100-80GB}, ...)
 * @param aliases             other accepted spellings
 * @param bf16Tflops          peak dense BF16 tensor TFLOPS (FP32 accumulate)
 * @param fp8Tflops           peak dense FP8 tensor TFLOPS, 0 without FP8 tensor cores
 * @param memoryBandwidthTBps peak memory bandwidth, TB/s (1e12 B/s)
 * @param memoryGiB           device memory, GiB
 * @param smCount             streaming multiprocessors
 * @param computeCapability   CUDA compute capability, {@code major.minor} (NVIDIA's CUDA GPUs list): vLLM picks its
 *                            attention kernel by it ({@link AttentionBackend})
 * @param boostClockMhz       boost clock, MHz, the clock of the datasheet's peaks; 0 when the row gives none (required
 *                            where vLLM runs FlashAttention-2, whose per-SM cycles the roofline prices, {@link RooflineModel})
 * @param interconnect        the intra-node link, GPUs per node and inter-node network
 * @param hostLinkGbPerS      host link (PCIe x16) bandwidth per direction, GB/s (1e9 B/s): the default
 *                            of the GPU-CPU KV transfer link
 * @param source              datasheet / file the numbers come from
 * @param price               what one GPU costs per hour and where that figure comes from ({@link Price#NONE}: no price)
 */
public record GpuSpec(String name, List<String> aliases, double bf16Tflops, double fp8Tflops,
                      double memoryBandwidthTBps, double memoryGiB, int smCount, ComputeCapability computeCapability,
                      double boostClockMhz, Interconnect interconnect, double hostLinkGbPerS, String source, Price price) {

    public GpuSpec {
        aliases = List.copyOf(aliases);
        if (!(bf16Tflops > 0 && fp8Tflops >= 0 && memoryBandwidthTBps > 0 && memoryGiB > 0 && smCount > 0
                && computeCapability != null && boostClockMhz >= 0 && interconnect != null && hostLinkGbPerS > 0)
                || price == null) {
            throw new IllegalArgumentException("GPU " + name + ": non-positive spec");
        }
        if (AttentionBackend.of(computeCapability) == AttentionBackend.FLASH_ATTENTION_2 && !(boostClockMhz > 0)) {
            throw new IllegalArgumentException("GPU " + name + ": compute capability " + computeCapability
                    + " runs FlashAttention-2 and needs its boost clock");
        }
    }

    /** A GPU without a price. */
    public GpuSpec(String name, List<String> aliases, double bf16Tflops, double fp8Tflops, double memoryBandwidthTBps,
                   double memoryGiB, int smCount, ComputeCapability computeCapability, double boostClockMhz,
                   Interconnect interconnect, double hostLinkGbPerS, String source) {
        this(name, aliases, bf16Tflops, fp8Tflops, memoryBandwidthTBps, memoryGiB, smCount, computeCapability,
                boostClockMhz, interconnect, hostLinkGbPerS, source, Price.NONE);
    }

    /**
     * A CUDA compute capability, {@code major.minor} (8.0 A100, 8.9 Ada, 9.0 Hopper, 10.0 Blackwell data-center, 12.0
     * Blackwell RTX).
     */
    public record ComputeCapability(int major, int minor) {
        public ComputeCapability {
            if (major < 1 || minor < 0 || minor > 9) {
                throw new IllegalArgumentException("compute capability " + major + "." + minor);
            }
        }

        @Override
        public String toString() {
            return major + "." + minor;
        }
    }

    /** SM cycles the whole GPU runs per microsecond at its boost clock (SMs x MHz); 0 without a clock. */
    public double smCyclesPerUs() {
        return smCount * boostClockMhz;
    }

    /**
     * The on-demand price of one GPU of this type per hour, in US dollars, with its source (a survey, a provider's
     * price list, or the user's file). The autoscaling cost ({@code cost_usd}) and capacity plans price a deployment
     * with it.
     *
     * @param usdPerGpuHour US dollars per GPU-hour; NaN for none
     * @param source        where the figure comes from; empty for none
     */
    public record Price(double usdPerGpuHour, String source) {
        /** No price known. */
        public static final Price NONE = new Price(Double.NaN, "");

        /** Whether a price is known. */
        public boolean known() {
            return !Double.isNaN(usdPerGpuHour);
        }
    }

    /** Peak dense tensor FLOP/s for weights of {@code weightBytesPerParam} (8-bit weights use FP8 cores when present). */
    public double peakFlopsPerSecond(double weightBytesPerParam) {
        double tflops = weightBytesPerParam == 1.0 && fp8Tflops > 0 ? fp8Tflops : bf16Tflops;
        return tflops * 1e12;
    }

    public double memoryBytesPerSecond() {
        return memoryBandwidthTBps * 1e12;
    }

    public double memoryBytes() {
        return memoryGiB * (double) (1L << 30);
    }
}
