package io.servesim.run;

import io.servesim.config.Durations;
import io.servesim.config.Setting;
import io.servesim.config.ValueType;
import java.util.List;

/** The top-level settings of a run config: the seed, the limits of a run, and the fitness it is scored by. */
public final class RunSettings {
    public static final Setting<Long> SEED = Setting.of("seed", ValueType.integer(Long.MIN_VALUE, Long.MAX_VALUE), 42L,
            "Master seed: every random stream (arrivals, lengths, policies) is derived from it and a subsystem's name.")
            .flag("--seed");
    public static final Setting<Long> HORIZON = Setting.of("horizon_us",
            ValueType.duration(0, Durations.MAX_US).bareMicros().because("0 runs until every request has left; simulated"
                    + " time is microseconds in a long"), 0L,
            "Simulated time limit; requests still queued or running then are counted unfinished. 0: run until drained."
                    + " Also read as horizon, BLIS's name (microseconds).")
            .flag("--horizon-us").alias("horizon");
    public static final Setting<Long> MAX_EVENTS = Setting.of("max_events",
            ValueType.integer(1, Long.MAX_VALUE).in("events", null), 500_000_000L,
            "Events a run may process before it stops with an error, so a run that cannot end (a link or rate far below"
                    + " the hardware's) fails instead of spinning; 500 million is over 10 minutes of kernel time and about"
                    + " 70 million requests.")
            .flag("--max-events");
    public static final Setting<String> FITNESS_WEIGHTS = Setting.derived("fitness_weights", ValueType.text(), "none",
            "Weighted fitness metrics, key:weight,... (e.g. throughput_rps:0.5,ttft_p99_ms:0.5); a key is a metric"
                    + " column with a fitness rule (servesim metrics, docs/metrics-reference.md); evaluate requires them.")
            .flag("--fitness-weights");

    /** Every top-level setting, in documentation order. */
    public static final List<Setting<?>> ALL = List.of(SEED, HORIZON, MAX_EVENTS, FITNESS_WEIGHTS);

    private RunSettings() {
    }
}
