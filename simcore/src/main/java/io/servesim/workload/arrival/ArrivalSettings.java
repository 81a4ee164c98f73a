package io.servesim.workload.arrival;

import io.servesim.config.Durations;
import io.servesim.config.Setting;
import io.servesim.config.ValueType;
import io.servesim.workload.WorkloadSettings;
import java.util.List;

/**
 * A client's {@code arrival:} settings: the process (BLIS {@code sim/workload/arrival.go}; gamma and Weibull gaps by
 * their coefficient of variation, as ServeGen fits bursty traffic) and each process's parameters ({@link ArrivalSpec}
 * defines them; {@link ArrivalBinder} reads them, each process only its own).
 */
public final class ArrivalSettings {
    /**
     * The largest {@code cv} of gamma gaps: their shape is 1/cv^2, and the sampler's boost U^(1/shape)
     * ({@code Samplers.standardGamma}) underflows to a zero gap ever more often beyond it (one draw in six at cv 20).
     */
    static final double MAX_GAMMA_CV = 10;

    public static final Setting<String> PROCESS = Setting.derived("workload.clients[].arrival.process",
            ValueType.choice(ArrivalType.names()), "poisson without an arrival block; required in one",
            "The arrival process; every process but distribution has the client's mean rate (its share of"
                    + " aggregate_rate); distribution draws the gaps from inter_arrival_us, a distribution block in"
                    + " microseconds, which sets the client's rate; spread (staged loads only) sends each stage's"
                    + " floor(rate x duration) requests with gaps scaled to fill the stage, as inference-perf's constant"
                    + " load does.");
    public static final Setting<Double> CV = Setting.derived("workload.clients[].arrival.cv",
            ValueType.real(0, 20).above().in("", "the Azure LLM inference traces of 2023 measure 1.07 for conversation and"
                    + " 2.91 for code; 20 is burstier than any measured serving traffic"),
            "required for gamma and weibull (only there)",
            "Coefficient of variation of the gaps (1: Poisson); at most " + (long) MAX_GAMMA_CV + " for gamma.");
    public static final Setting<Double> SPIKE_FACTOR = Setting.derived("workload.clients[].arrival.spike_factor",
            ValueType.real(1, 1e4).in("", "the spike rate is this multiple of the baseline: below 1 it is no spike, beyond"
                    + " 10^4 the baseline carries no traffic"),
            "required for bursty (only there)", "Bursty: the rate during a spike, as a multiple of the baseline rate.");
    public static final Setting<Long> SPIKE_INTERVAL_US = Setting.derived("workload.clients[].arrival.spike_interval_us",
            ValueType.duration(1, Durations.MAX_US).bareMicros().because(WorkloadSettings.SIMULATED_TIME),
            "required for bursty (only there)", "Bursty: a spike starts this often, from first_spike_us.");
    public static final Setting<Long> SPIKE_DURATION_US = Setting.derived("workload.clients[].arrival.spike_duration_us",
            ValueType.duration(1, Durations.MAX_US).bareMicros().because(WorkloadSettings.SIMULATED_TIME),
            "required for bursty (only there)", "Bursty: each spike's length, shorter than spike_interval_us.");
    public static final Setting<Long> FIRST_SPIKE_US = Setting.of("workload.clients[].arrival.first_spike_us",
            ValueType.duration(0, Durations.MAX_US).bareMicros().because(WorkloadSettings.SIMULATED_TIME), 0L,
            "Bursty: the first spike's start; before it the rate is the baseline.");
    public static final Setting<Long> PERIOD_US = Setting.of("workload.clients[].arrival.period_us",
            ValueType.duration(1, Durations.MAX_US).bareMicros().because(WorkloadSettings.SIMULATED_TIME),
            86_400_000_000L, "Diurnal: the length of the cycle (a day).");
    public static final Setting<Double> PEAK_TO_TROUGH_RATIO = Setting.derived(
            "workload.clients[].arrival.peak_to_trough_ratio",
            ValueType.real(1, 1e4).in("", "the peak rate over the trough's: below 1 the peak is no peak, beyond 10^4 the"
                    + " trough carries no traffic"),
            "required for diurnal (only there)", "Diurnal: the peak rate over the trough rate.");
    public static final Setting<Long> PEAK_US = Setting.of("workload.clients[].arrival.peak_us",
            ValueType.duration(0, Durations.MAX_US).bareMicros().because(WorkloadSettings.SIMULATED_TIME), 0L,
            "Diurnal: when in the period the rate peaks; before period_us.");

    /** The key of the {@code distribution} process's gap distribution (a distribution block, see {@code dist}). */
    public static final String INTER_ARRIVAL_US = "inter_arrival_us";

    /** Every arrival setting, in documentation order. */
    public static final List<Setting<?>> ALL = List.of(PROCESS, CV, SPIKE_FACTOR, SPIKE_INTERVAL_US, SPIKE_DURATION_US,
            FIRST_SPIKE_US, PERIOD_US, PEAK_TO_TROUGH_RATIO, PEAK_US);

    private ArrivalSettings() {
    }
}
