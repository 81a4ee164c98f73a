package io.servesim.disagg;

import io.servesim.config.Setting;
import io.servesim.config.ValueType;
import io.servesim.latency.LatencyKind;
import java.util.List;

/**
 * The settings of prefill/decode disaggregation ({@code deployment.architecture: pd}, {@code deployment.pd}): two pools
 * and the KV transfer links between them, after BLIS's P/D flags ({@code --prefill-replicas}, {@code --decode-replicas},
 * {@code --pd-decider}, {@code --pd-transfer-bandwidth}: BLIS macro plan, PR 16, inference-sim/inference-sim @
 * 7d4e8bac, {@code docs/plans/2026-02-11-macro-implementation-plan-v2.md}) and NVIDIA Dynamo's conditional
 * disaggregation ({@code lib/llm/src/disagg_router.rs}). Bound by {@link PdBinder} and {@link TransferSpec}; a pool's
 * {@code engine:} is the engine section's, and {@code decode_routing} (a routing policy) is declared beside the
 * registry it names ({@code run.DecodeRouting}).
 */
public final class PdSettings {
    private static final String FLEET = "the most replicas a run simulates, as deployment.instances";

    public static final Setting<String> ARCHITECTURE = Setting.of("deployment.architecture",
            ValueType.choice(List.of("aggregated", "pd")), "aggregated",
            "aggregated: one pool of deployment.instances; pd: prefill/decode disaggregation (deployment.pd).")
            .flag("--architecture");
    public static final Setting<Long> PREFILL_REPLICAS = Setting.of("deployment.pd.prefill.replicas",
            ValueType.integer(1, 100_000).in("replicas", FLEET), 1L, "Instances of the prefill pool.")
            .flag("--prefill-replicas");
    public static final Setting<Long> DECODE_REPLICAS = Setting.of("deployment.pd.decode.replicas",
            ValueType.integer(1, 100_000).in("replicas", FLEET), 1L, "Instances of the decode pool.")
            .flag("--decode-replicas");
    public static final Setting<String> POOL_HARDWARE = Setting.derived("deployment.pd.<pool>.hardware", ValueType.text(),
            "deployment.hardware", "The pool's GPU (<pool> is prefill or decode), a name deployment.hardware may take.");
    public static final Setting<Long> POOL_TP = Setting.derived("deployment.pd.<pool>.tp",
            ValueType.integer(1, 64).in("GPUs", "as deployment.tp: one instance spans at most 64 GPUs"), "deployment.tp",
            "The pool's tensor-parallel degree.").alias("tensor_parallelism");
    public static final Setting<String> POOL_LATENCY_MODEL = Setting.derived("deployment.pd.<pool>.latency_model",
            ValueType.choice(LatencyKind.names()), "deployment.latency_model", "The pool's latency model.");
    public static final Setting<String> DECIDER = Setting.of("deployment.pd.decider",
            ValueType.choice(PdDecider.names()), PdDecider.ALWAYS.configName(),
            "Which requests' prefills run on the prefill pool: always, never, or prefix-threshold (Dynamo's conditional"
                    + " disaggregation: remote when the uncached prompt exceeds prefix_threshold_tokens).")
            .flag("--pd-decider");
    public static final Setting<Long> PREFIX_THRESHOLD_TOKENS = Setting.of("deployment.pd.prefix_threshold_tokens",
            ValueType.integer(0, 10_000_000).in("tokens", "beyond the longest context of any model (10M tokens) nothing is"
                    + " disaggregated: that is the never decider"), 1000L,
            "The prefix-threshold decider disaggregates prompts with more uncached tokens than this (Dynamo's"
                    + " max_local_prefill_length, default 1000).")
            .flag("--pd-prefix-threshold");
    public static final Setting<Long> TRANSFER_LATENCY = Setting.derived("deployment.pd.transfer.latency",
            ValueType.duration(0, 60_000_000L).because("a fixed cost per transfer beyond a minute is no link"),
            "the greater network latency of the two pools' GPUs (gpus.yaml network.latency_us, rounded up to a us)",
            "Fixed cost per KV transfer (handshake and completion notification).")
            .flag("--pd-transfer-latency");
    public static final Setting<Double> TRANSFER_BANDWIDTH = Setting.derived("deployment.pd.transfer.bandwidth",
            ValueType.bandwidth(0.01, 10_000).because("a P/D link below 10 MB/s moves a prompt's KV in minutes; above"
                    + " 10 TB/s is beyond any NVLink or RDMA fabric"),
            "the lesser network bandwidth per GPU of the two pools' GPUs (gpus.yaml network.bandwidth_gbps)",
            "One link's bandwidth per GPU stream: the GPUs' network, one NIC per GPU (a DGX H100's 400 Gb/s ConnectX-7:"
                    + " 50 GB/s, as Dynamo's NIXL moves KV GPU to GPU over RDMA).")
            .flag("--pd-transfer-bandwidth");
    public static final Setting<String> TRANSFER_TOPOLOGY = Setting.of("deployment.pd.transfer.topology",
            ValueType.choice(Topology.names()), Topology.PER_PAIR.configName(),
            "Which transfers share a link: per-pair (one link per prefill-decode pair) or shared (one fabric for all).");

    /** Every P/D setting, in documentation order. */
    public static final List<Setting<?>> ALL = List.of(ARCHITECTURE, PREFILL_REPLICAS, DECODE_REPLICAS, POOL_HARDWARE,
            POOL_TP, POOL_LATENCY_MODEL, DECIDER, PREFIX_THRESHOLD_TOKENS, TRANSFER_LATENCY, TRANSFER_BANDWIDTH,
            TRANSFER_TOPOLOGY);

    private PdSettings() {
    }
}
