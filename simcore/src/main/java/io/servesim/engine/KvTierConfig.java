package io.servesim.engine;

import io.servesim.config.Setting;
import io.servesim.config.ConfigNode;
import java.util.List;
import java.util.Locale;

/**
 * The CPU tier under an instance's GPU KV cache and the link between them, as bound from the
 * {@code engine:} section ({@code kv_cpu_blocks}, {@code kv_offload_threshold},
 * {@code kv_transfer_bandwidth}, {@code kv_transfer_base_latency_us}, {@code kv_reload},
 * {@code kv_reload_on_allocation_failure}). The model follows BLIS's tiered cache (BLIS core engine docs,
 * "Tiered Cache (GPU + CPU)": inference-sim/inference-sim @ ce85515e, {@code docs/concepts/core-engine.md};
 * its flags {@code --kv-cpu-blocks}, {@code --kv-offload-threshold}, {@code --kv-transfer-bandwidth}: BLIS
 * macro plan, PR 13 and PR 14) and the transfer formula of BLIS macro plan, D.3,
 * {@code time = base_latency + blocks * block_size / bandwidth}, with the block size in bytes
 * (inference-sim/inference-sim @ 7d4e8bac, {@code docs/plans/2026-02-11-macro-implementation-plan-v2.md}).
 * Two values depend on the deployment and are resolved once before a run ({@code io.servesim.run.RunPlan}):
 * the link's bandwidth when not given (the GPU's host link, PCIe x16) and the KV bytes of one block (block
 * size x the model's KV bytes per token per GPU).
 *
 * @param cpuBlocks                CPU-tier capacity in blocks; 0 = no CPU tier (the GPU-only cache)
 * @param offloadThreshold         a GPU block evicted while more than this share of GPU blocks is in
 *                                 use is copied to the CPU tier, in [0, 1]
 * @param transferBandwidthGbPerS  GPU-CPU link bandwidth, GB/s (1e9 B/s); {@link #BANDWIDTH_FROM_GPU}
 *                                 until resolved
 * @param transferBaseLatencyUs    fixed cost of one transfer, microseconds
 * @param reload                   how a reload delays work ({@link Reload})
 * @param bytesPerBlock            KV bytes of one block on one GPU; {@link #BYTES_FROM_MODEL} until resolved
 * @param reloadOnAllocationFailure BLIS's trigger (BLIS core engine docs, "Reload: On GPU allocation failure"):
 *                                 the CPU tier is consulted only when a new request's GPU allocation fails
 *                                 ({@link FailureReload}); false: at every admission, after the GPU hits
 *                                 (vLLM's connector)
 */
public record KvTierConfig(int cpuBlocks, double offloadThreshold, double transferBandwidthGbPerS,
                           long transferBaseLatencyUs, Reload reload, long bytesPerBlock,
                           boolean reloadOnAllocationFailure) {
    /**
     * What a reload of CPU-tier blocks delays.
     * <ul>
     *   <li>{@link #BLOCKING} (default): only the request that hit: it holds its GPU blocks and waits
     *       until the transfer completes, while the other requests keep computing; then it is
     *       scheduled with the reloaded tokens computed. vLLM v1's KV connectors do this
     *       ({@code OffloadingConnector.get_num_new_matched_tokens} returns {@code load_kv_async =
     *       True}; the scheduler parks the request in {@code WAITING_FOR_REMOTE_KVS} until the worker
     *       reports it in {@code finished_recving}, {@code vllm/v1/core/sched/scheduler.py}).</li>
     *   <li>{@link #STEP}: the step that admits the request waits for the transfer: its time grows by
     *       the transfer's (BLIS core engine docs, "Non-blocking (added to step time)").</li>
     * </ul>
     */
    public enum Reload {
        BLOCKING, STEP;

        public String configName() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** {@code kv_transfer_bandwidth} not given: the GPU's host link. */
    public static final double BANDWIDTH_FROM_GPU = 0;
    /** Bytes per block not known yet: from the model's architecture. */
    public static final long BYTES_FROM_MODEL = 0;
    /** Default {@code kv_offload_threshold} (BLIS's: BLIS core engine docs, "(default: 0.9)"). */
    public static final double DEFAULT_OFFLOAD_THRESHOLD = 0.9;
    /** No CPU tier. */
    public static final KvTierConfig OFF = new KvTierConfig(0, DEFAULT_OFFLOAD_THRESHOLD, BANDWIDTH_FROM_GPU, 0,
            Reload.BLOCKING, BYTES_FROM_MODEL);

    /** A tier consulted at every admission ({@code kv_reload_on_allocation_failure: false}). */
    public KvTierConfig(int cpuBlocks, double offloadThreshold, double transferBandwidthGbPerS,
                        long transferBaseLatencyUs, Reload reload, long bytesPerBlock) {
        this(cpuBlocks, offloadThreshold, transferBandwidthGbPerS, transferBaseLatencyUs, reload, bytesPerBlock, false);
    }

    public KvTierConfig {
        if (cpuBlocks < 0 || !(offloadThreshold >= 0 && offloadThreshold <= 1) || !(transferBandwidthGbPerS >= 0)
                || transferBaseLatencyUs < 0 || reload == null || bytesPerBlock < 0) {
            throw new IllegalArgumentException("invalid KV tier config " + this);
        }
    }

    /** Settings of the CPU tier itself (kv_reload_on_allocation_failure has its own message). */
    private static final List<Setting<?>> TIER_ONLY = List.of(EngineSettings.KV_OFFLOAD_THRESHOLD,
            EngineSettings.KV_TRANSFER_BANDWIDTH, EngineSettings.KV_TRANSFER_BASE_LATENCY, EngineSettings.KV_RELOAD);

    /** Binds the tier keys of the {@code engine:} section {@code e} (the caller finishes {@code e}). */
    public static KvTierConfig bind(ConfigNode e) {
        int cpuBlocks = e.getInt(EngineSettings.KV_CPU_BLOCKS);
        double threshold = e.get(EngineSettings.KV_OFFLOAD_THRESHOLD);
        Double gbPerS = e.get(EngineSettings.KV_TRANSFER_BANDWIDTH);
        double bandwidth = gbPerS == null ? BANDWIDTH_FROM_GPU : gbPerS;
        long baseUs = e.get(EngineSettings.KV_TRANSFER_BASE_LATENCY);
        String mode = e.get(EngineSettings.KV_RELOAD);
        boolean onFailure = e.get(EngineSettings.KV_RELOAD_ON_ALLOCATION_FAILURE);
        if (onFailure && cpuBlocks == 0) {
            e.problem(e.pathOf("kv_reload_on_allocation_failure"), "needs kv_cpu_blocks > 0 (it reloads from the CPU tier)");
        }
        if (cpuBlocks == 0) {
            // settings of a tier that does not exist would be accepted and change nothing
            for (Setting<?> s : TIER_ONLY) {
                for (String key : names(s)) {
                    if (e.has(key)) {
                        e.problem(e.pathOf(key), "only applies with kv_cpu_blocks > 0 (there is no CPU tier to offload to"
                                + " or reload from); set kv_cpu_blocks or remove it");
                    }
                }
            }
        }
        if (onFailure && e.has("kv_reload")) {
            e.problem(e.pathOf("kv_reload"), "does not apply with kv_reload_on_allocation_failure: true (those reloads "
                    + "lengthen the step that issues them, as in BLIS's tiered cache), got '" + mode + "'");
        }
        return new KvTierConfig(cpuBlocks, threshold, bandwidth, baseUs, Reload.valueOf(mode.toUpperCase(Locale.ROOT)),
                BYTES_FROM_MODEL, onFailure);
    }

    private static List<String> names(Setting<?> s) {
        List<String> all = new java.util.ArrayList<>(s.aliases());
        all.add(0, s.key());
        return all;
    }

    public boolean enabled() {
        return cpuBlocks > 0;
    }

    /** Whether the link bandwidth and block bytes are known (a tier needs both; an off tier needs neither). */
    public boolean isResolved() {
        return !enabled() || (transferBandwidthGbPerS > 0 && bytesPerBlock > 0);
    }

    /** This config with the link bandwidth (when not given) and the bytes of a block resolved. */
    public KvTierConfig resolved(double hostLinkGbPerS, long blockBytes) {
        double bw = transferBandwidthGbPerS > 0 ? transferBandwidthGbPerS : hostLinkGbPerS;
        return new KvTierConfig(cpuBlocks, offloadThreshold, bw, transferBaseLatencyUs, reload, blockBytes,
                reloadOnAllocationFailure);
    }

    /**
     * Microseconds one transfer of {@code blocks} blocks occupies the link: {@code base_latency +
     * bytes / bandwidth} (BLIS macro plan, D.3), rounded up to a whole microsecond.
     */
    public long transferUs(int blocks) {
        double bytes = (double) blocks * bytesPerBlock;
        return transferBaseLatencyUs + (long) Math.ceil(bytes / (transferBandwidthGbPerS * 1e3));
    }
}
