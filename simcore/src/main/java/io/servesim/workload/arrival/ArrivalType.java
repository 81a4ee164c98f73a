package io.servesim.workload.arrival;

import io.servesim.config.ConfigNode;
import java.util.Arrays;
import java.util.List;

/**
 * The arrival processes of {@code arrival: {process, ...}}, each naming how its {@link ArrivalSpec}
 * is bound from its parameters (as the Caffeine simulator's {@code parser/TraceFormat} names each
 * reader's constructor). Valid names in messages come from {@link #names()}, in declaration order;
 * {@link ArrivalSpec} gives each process's definition.
 *
 * <p>To add a process: add its record to {@link ArrivalSpec} (copy {@link ArrivalSpec.Gamma}: its
 * {@code atRate} at the client's mean rate), its parameters to {@link ArrivalSettings} (and its {@code ALL}) and a
 * static binder of them to {@link ArrivalBinder} if it has any (copy {@code ArrivalBinder.weibull}), and one constant
 * here, e.g.
 * {@code LOGNORMAL("lognormal", ArrivalBinder::lognormal)}. {@code ArrivalContractTest} then checks
 * its mean rate and that the same seed gives the same arrivals.
 */
public enum ArrivalType {
    /** Exponential gaps, CV 1 (the default when there is no {@code arrival}). */
    POISSON("poisson", (a, dir) -> new ArrivalSpec.Poisson()),
    /** Gaps of exactly 1/rate, CV 0. */
    CONSTANT("constant", (a, dir) -> new ArrivalSpec.Constant()),
    /** {@code {cv}}: Gamma gaps. */
    GAMMA("gamma", (a, dir) -> ArrivalBinder.gamma(a)),
    /** {@code {cv}}: Weibull gaps. */
    WEIBULL("weibull", (a, dir) -> ArrivalBinder.weibull(a)),
    /** {@code {spike_factor, spike_interval_us, spike_duration_us, first_spike_us}}: Poisson with periodic spikes. */
    BURSTY("bursty", (a, dir) -> ArrivalBinder.bursty(a)),
    /** {@code {period_us, peak_to_trough_ratio, peak_us}}: Poisson with a sinusoidal rate. */
    DIURNAL("diurnal", (a, dir) -> ArrivalBinder.diurnal(a)),
    /** {@code {inter_arrival_us}}: gaps from a distribution block, which sets the rate. */
    DISTRIBUTION("distribution", ArrivalBinder::distribution),
    /** Staged loads only: each stage's floor(rate x duration) requests spread over it (inference-perf's constant load). */
    SPREAD("spread", (a, dir) -> new ArrivalSpec.Spread());

    /**
     * Binds a process's parameters from its {@code arrival} node (files relative to {@code baseDir}); null (with
     * problems recorded) when invalid.
     */
    @FunctionalInterface
    interface Binder {
        ArrivalSpec bind(ConfigNode arrival, java.nio.file.Path baseDir);
    }

    private final String configName;
    private final Binder binder;

    ArrivalType(String configName, Binder binder) {
        this.configName = configName;
        this.binder = binder;
    }

    /** The name in configs ({@code arrival.process}). */
    public String configName() {
        return configName;
    }

    ArrivalSpec bind(ConfigNode arrival, java.nio.file.Path baseDir) {
        return binder.bind(arrival, baseDir);
    }

    /** Every process's name, in declaration order. */
    public static List<String> names() {
        return Arrays.stream(values()).map(ArrivalType::configName).toList();
    }

    /** The process called {@code name} (case-insensitive). */
    public static ArrivalType of(String name) {
        for (ArrivalType t : values()) {
            if (t.configName.equalsIgnoreCase(name)) {
                return t;
            }
        }
        throw new IllegalArgumentException("unknown arrival process '" + name + "'; valid: " + String.join(", ", names()));
    }
}
