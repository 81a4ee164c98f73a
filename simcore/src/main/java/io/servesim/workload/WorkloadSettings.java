package io.servesim.workload;

import io.servesim.config.Durations;
import io.servesim.config.Setting;
import io.servesim.config.ValueType;
import java.util.List;

/**
 * The {@code workload:} section's own settings (workload spec v2, after BLIS {@code sim/workload/spec.go}): the spec
 * version, a built-in {@link Scenarios scenario}, the workload's seed, its aggregate rate and where it ends
 * ({@link WorkloadBinder}, {@link GeneratorBinder}). A client's keys are {@link ClientSettings}, a trace replay's
 * {@link TraceSettings}.
 */
public final class WorkloadSettings {
    /**
     * Why a time on the simulated clock is at most {@link Durations#MAX_US}: the clock is a {@code long} of
     * microseconds that every such time is added to.
     */
    public static final String SIMULATED_TIME = "at most 10^9 s (~31.7 years) of simulated time, which keeps the"
            + " microsecond clock from overflowing";

    public static final Setting<String> VERSION = Setting.of("workload.version", ValueType.text(), "2",
            "The workload spec's version; only 2 (BLIS workload spec v2) is read.");
    public static final Setting<String> SCENARIO = Setting.derived("workload.scenario",
            ValueType.choice(Scenarios.names()), "none",
            "A built-in workload (chat and code are fitted to the Azure LLM inference trace 2023); the keys given beside"
                    + " it replace the scenario's, each as a whole (clients replaces a single-client scenario's client"
                    + " too); a trace cannot go beside it.");
    public static final Setting<Long> SEED = Setting.derived("workload.seed",
            ValueType.integer(Long.MIN_VALUE, Long.MAX_VALUE), "the run's seed",
            "The workload's own seed: its random streams derive from it instead of the run's.");
    public static final Setting<Double> AGGREGATE_RATE = Setting.derived("workload.aggregate_rate",
            ValueType.real(0, 1e6).above().in("requests/s", "a million requests a second is beyond any serving fleet"),
            "required", "Arrivals (requests, or sessions: their follow-up turns and agentic steps come on top) per second"
                    + " across all clients.")
            .flag("--rate");
    public static final Setting<Long> NUM_REQUESTS = Setting.of("workload.num_requests",
            ValueType.integer(0, Long.MAX_VALUE).in("requests", null), 0L,
            "Requests in all, follow-up turns and agentic steps included (sessions then end cut_by_limit); 0: no limit,"
                    + " when horizon_us or the run's horizon_us ends the workload. For a trace replay --num-requests sets"
                    + " workload.trace.max_requests.")
            .flag("--num-requests");
    public static final Setting<Long> HORIZON_US = Setting.of("workload.horizon_us",
            ValueType.duration(0, Durations.MAX_US).bareMicros().because(SIMULATED_TIME), 0L,
            "No request arrives after this time; 0: no limit (the run's horizon_us also applies). Also read as horizon,"
                    + " BLIS's name (WorkloadSpec.Horizon, microseconds).")
            .alias("horizon");
    public static final Setting<String> CATEGORY = Setting.derived("workload.category",
            ValueType.choice(List.of("language", "multimodal", "reasoning", "agentic")), "none (not checked)",
            "What the clients are, as BLIS's WorkloadSpec.Category names it, checked against them: multimodal,"
                    + " reasoning or agentic, some client has that block; language, no client has any of them.");

    public static final Setting<Double> STAGE_RATE = Setting.derived("workload.stages[].rate",
            ValueType.real(0, 1e6).above().in("requests/s", "a million requests a second is beyond any serving fleet"),
            "required in a stage", "The stage's arrivals (sessions) per second across the clients, replacing"
                    + " aggregate_rate (inference-perf's stages[].rate).");
    public static final Setting<Long> STAGE_DURATION_US = Setting.derived("workload.stages[].duration_us",
            ValueType.duration(1, Durations.MAX_US).bareMicros().because(SIMULATED_TIME), "required in a stage",
            "How long the stage sends; it then drains (every request it sent has left) before the next stage starts"
                    + " (inference-perf's stages[].duration, in seconds there).");
    public static final Setting<Long> STAGE_INTERVAL_US = Setting.of("workload.stage_interval_us",
            ValueType.duration(0, Durations.MAX_US).bareMicros().because(SIMULATED_TIME), 0L,
            "Staged load: the pause between a stage draining and the next one starting (inference-perf's load.interval).");    public static final Setting<String> INFERENCE_PERF = Setting.derived("workload.inference_perf", ValueType.text(),
            "none", "A kubernetes-sigs/inference-perf config file, relative to the config's directory, read as the"
                    + " workload: its load stages (constant or poisson) and its shared_prefix, random or synthetic data;"
                    + " what it says that servesim does not model is refused with its key. Beside it only version, seed,"
                    + " num_requests and horizon_us, which override the file's.");

    /** Every setting of the section, in documentation order. */
    public static final List<Setting<?>> ALL = List.of(VERSION, SCENARIO, SEED, AGGREGATE_RATE, NUM_REQUESTS, HORIZON_US, CATEGORY,
            STAGE_RATE, STAGE_DURATION_US, STAGE_INTERVAL_US, INFERENCE_PERF);

    private WorkloadSettings() {
    }
}
