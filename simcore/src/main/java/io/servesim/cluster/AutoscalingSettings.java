package io.servesim.cluster;

import io.servesim.config.Setting;
import io.servesim.config.ValueType;
import java.util.List;

/**
 * The {@code autoscaling:} settings: the fleet's bounds, the scale-check period and the actuation model of a new
 * replica (BLIS macro plan, D.6 and PR 12: inference-sim/inference-sim @ 7d4e8bac,
 * {@code docs/plans/2026-02-11-macro-implementation-plan-v2.md}, whose flags {@code --autoscaler-enabled},
 * {@code --provisioning-delay}, {@code --warmup-duration} and {@code --drain-policy} these are). Defaults: Kubernetes
 * HPA's 15 s sync period as the check interval ({@code --horizontal-pod-autoscaler-sync-period}); 30 s provisioning (a
 * node already in the pool starting a pod); weights read at 2 GB/s (a local NVMe or a 16 Gbit/s network volume); 30 s
 * warm-up (vLLM's CUDA-graph capture and profiling run); a 60 s signal window; a 300 s oscillation window (HPA's
 * default scale-down stabilization window). Bound by {@link AutoscalingBinder}; the policy is
 * {@code policies.autoscale} (or {@code autoscaling.policy}).
 */
public final class AutoscalingSettings {
    private static final String FLEET = "the most replicas a run simulates, as deployment.instances";
    private static final long HOUR_US = 3_600_000_000L;
    /** A step of a new replica's start-up. */
    private static final ValueType.Duration STARTUP = ValueType.duration(0, HOUR_US).because("a replica starts in seconds"
            + " to minutes (a pod on a warm node, vLLM's weight load and warm-up); one taking over an hour is not autoscaling");

    public static final Setting<Boolean> ENABLED = Setting.of("autoscaling.enabled", ValueType.bool(), false,
            "Replicas come and go (the autoscale policy decides); false: the fixed fleet of deployment.instances, and"
                    + " only gpu_price_per_hour may be given.")
            .flag("--autoscaler-enabled");
    public static final Setting<Long> MIN = Setting.of("autoscaling.min",
            ValueType.integer(1, 100_000).in("replicas", FLEET), 1L, "Fewest ready + starting replicas.")
            .flag("--autoscaler-min");
    public static final Setting<Long> MAX = Setting.derived("autoscaling.max",
            ValueType.integer(1, 100_000).in("replicas", FLEET), "the larger of autoscaling.min and deployment.instances",
            "Most ready + starting replicas (also the number of replica slots).")
            .flag("--autoscaler-max");
    public static final Setting<Long> CHECK_INTERVAL = Setting.of("autoscaling.check_interval",
            ValueType.duration(100_000, HOUR_US).because("HPA syncs every 15 s: a control loop faster than 100 ms outruns the"
                    + " metrics it reads, one slower than an hour does not follow load"), 15_000_000L,
            "Period of the scale check (Kubernetes HPA's sync period).");
    public static final Setting<Long> PROVISIONING_DELAY = Setting.of("autoscaling.provisioning_delay", STARTUP, 30_000_000L,
            "Node + pod start of a new replica, before its weights load.")
            .flag("--provisioning-delay");
    public static final Setting<Long> LOAD_TIME = Setting.derived("autoscaling.load_time", STARTUP,
            "the model's weights / load_bandwidth_gb_per_s",
            "Weight loading time of a new replica; give it or load_bandwidth_gb_per_s, not both.");
    public static final Setting<Double> LOAD_BANDWIDTH = Setting.of("autoscaling.load_bandwidth_gb_per_s",
            ValueType.bandwidth(0.01, 1000).because("below 10 MB/s an 8B model's 16 GB take half an hour to load; above"
                    + " 1 TB/s is beyond any storage or network a replica reads its weights from"), 2.0,
            "Weight read bandwidth per replica, each reading its own copy of the model (without load_time).");
    public static final Setting<Long> WARMUP_DURATION = Setting.of("autoscaling.warmup_duration", STARTUP, 30_000_000L,
            "CUDA-graph capture, compilation and warm-up after the weights load.")
            .flag("--warmup-duration");
    public static final Setting<String> DRAIN_POLICY = Setting.of("autoscaling.drain_policy",
            ValueType.choice(DrainPolicy.names()), DrainPolicy.WAIT.configName(),
            "What a scale-down does to the victim's work: wait (finish it), immediate (route it again and recompute) or"
                    + " redirect (move the queued requests, finish the running ones).")
            .flag("--drain-policy");
    public static final Setting<Long> WINDOW = Setting.of("autoscaling.window",
            ValueType.duration(100_000, 24 * HOUR_US).because("the windowed signals are averages over it: below 100 ms they"
                    + " are noise, over a day they average away the daily load cycle"), 60_000_000L,
            "Window of the windowed signals (request rate, SLO attainment).");
    public static final Setting<Long> OSCILLATION_WINDOW = Setting.of("autoscaling.oscillation_window",
            ValueType.duration(0, 24 * HOUR_US).because("an up and a down a day apart follow the daily load, they do not"
                    + " flap"), 300_000_000L,
            "An up followed by a down (or the reverse) within it counts as an oscillation (HPA's default scale-down"
                    + " stabilization window).");
    public static final Setting<Double> GPU_PRICE_PER_HOUR = Setting.derived("autoscaling.gpu_price_per_hour",
            ValueType.real(0, 1000).in("USD per GPU-hour", "beyond any GPU's list price"),
            "the GPU's row's usd_per_gpu_hour in the GPU table (gpus.yaml or deployment.gpus, with its"
                    + " price_source), else none and no cost",
            "Price of one GPU-hour for the cost metric (replica-seconds / 3600 x price x TP); also with a fixed fleet.");

    /** Every autoscaling setting, in documentation order. */
    public static final List<Setting<?>> ALL = List.of(ENABLED, MIN, MAX, CHECK_INTERVAL, PROVISIONING_DELAY, LOAD_TIME,
            LOAD_BANDWIDTH, WARMUP_DURATION, DRAIN_POLICY, WINDOW, OSCILLATION_WINDOW, GPU_PRICE_PER_HOUR);

    private AutoscalingSettings() {
    }
}
