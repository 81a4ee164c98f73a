package io.servesim.workload.arrival;

import io.servesim.config.ConfigNode;
import io.servesim.config.Durations;
import io.servesim.config.Setting;
import io.servesim.workload.dist.DistributionBinder;
import io.servesim.workload.dist.DistributionBinder.Kind;
import io.servesim.workload.dist.DistributionSpec;
import io.servesim.workload.dist.DistributionType;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.SplittableRandom;

/**
 * Binds {@code arrival: {process, ...}} strictly: each process ({@link ArrivalType}) reads only its
 * own parameters ({@link ArrivalSettings}; see {@link ArrivalSpec}), unknown process names list the valid ones
 * ({@link ArrivalType#names()}), and every problem names its path
 * ({@code workload.clients[1].arrival.cv: must be in (0, 20], got 0 (...)}).
 */
public final class ArrivalBinder {
    private ArrivalBinder() {
    }

    /**
     * The process of a present or absent {@code arrival} node (absent: Poisson; files relative to {@code baseDir});
     * null when invalid.
     */
    public static ArrivalSpec bind(ConfigNode a, Path baseDir) {
        if (!a.present()) {
            return ArrivalType.POISSON.bind(a, baseDir);
        }
        String process = a.get(ArrivalSettings.PROCESS);
        if (process == null) {
            if (!a.has(ArrivalSettings.PROCESS.key())) {
                a.problem(a.pathOf("process"), "required; valid: " + String.join(", ", ArrivalType.names()));
            }
            return null;
        }
        ArrivalSpec spec = ArrivalType.of(process).bind(a, baseDir);
        a.finish();
        return spec;
    }

    /** {@link ArrivalType#GAMMA}: {@code cv} at most {@value ArrivalSettings#MAX_GAMMA_CV}. */
    static ArrivalSpec gamma(ConfigNode a) {
        Double cv = cv(a, "gamma");
        if (cv != null && cv > ArrivalSettings.MAX_GAMMA_CV) {
            a.problem(a.pathOf("cv"), "must be <= " + (long) ArrivalSettings.MAX_GAMMA_CV + " for gamma, got "
                    + BigDecimal.valueOf(cv).stripTrailingZeros().toPlainString()
                    + " (gamma gaps have shape 1/cv^2, and below shape 0.01 the sampler's boost, U to the power 1/shape,"
                    + " underflows to zero gaps ever more often)");
            return null;
        }
        return cv == null ? null : new ArrivalSpec.Gamma(cv);
    }

    /** {@link ArrivalType#WEIBULL}. */
    static ArrivalSpec weibull(ConfigNode a) {
        Double cv = cv(a, "weibull");
        return cv == null ? null : new ArrivalSpec.Weibull(cv);
    }

    private static Double cv(ConfigNode a, String process) {
        Double cv = a.get(ArrivalSettings.CV);
        if (!a.has(ArrivalSettings.CV.key())) {
            a.problem(a.pathOf("cv"), "required for " + process + " (coefficient of variation of the gaps)");
        }
        return cv;
    }

    /** {@link ArrivalType#BURSTY}: spikes shorter than their interval. */
    static ArrivalSpec bursty(ConfigNode a) {
        Double factor = required(a, ArrivalSettings.SPIKE_FACTOR, "bursty");
        Long interval = required(a, ArrivalSettings.SPIKE_INTERVAL_US, "bursty");
        Long duration = required(a, ArrivalSettings.SPIKE_DURATION_US, "bursty");
        long first = a.get(ArrivalSettings.FIRST_SPIKE_US);
        if (interval != null && duration != null && duration >= interval) {
            a.problem(a.pathOf("spike_duration_us"), "must be < spike_interval_us (" + Durations.render(interval) + "), got "
                    + Durations.render(duration));
            return null;
        }
        boolean ok = factor != null && interval != null && duration != null && !a.refused(ArrivalSettings.FIRST_SPIKE_US);
        return ok ? new ArrivalSpec.Bursty(factor, interval, duration, first) : null;
    }

    /** {@link ArrivalType#DIURNAL}: the peak inside the period. */
    static ArrivalSpec diurnal(ConfigNode a) {
        long period = a.get(ArrivalSettings.PERIOD_US);
        Double ratio = required(a, ArrivalSettings.PEAK_TO_TROUGH_RATIO, "diurnal");
        long peak = a.get(ArrivalSettings.PEAK_US);
        boolean valid = !a.refused(ArrivalSettings.PERIOD_US) && !a.refused(ArrivalSettings.PEAK_US);
        if (valid && peak >= period) {
            a.problem(a.pathOf("peak_us"), "must be < period_us (" + Durations.render(period) + "), got "
                    + Durations.render(peak));
            return null;
        }
        return valid && ratio != null ? new ArrivalSpec.Diurnal(period, ratio, peak) : null;
    }

    /**
     * {@link ArrivalType#DISTRIBUTION}: {@code inter_arrival_us}, a distribution of durations whose draws are not all
     * 0 (then every arrival would fall at one instant, for ever).
     */
    static ArrivalSpec distribution(ConfigNode a, Path baseDir) {
        ConfigNode gaps = a.child(ArrivalSettings.INTER_ARRIVAL_US);
        if (!gaps.present()) {
            a.problem(a.pathOf(ArrivalSettings.INTER_ARRIVAL_US), "required for distribution: the gaps between arrivals,"
                    + " a distribution block in microseconds, e.g. {type: lognormal, params: {mean: 100000, sigma: 1.2}}");
            return null;
        }
        DistributionSpec spec = DistributionBinder.bind(gaps, Kind.MICROS, baseDir);
        if (spec == null) {
            return null;
        }
        // the largest gap it can draw: a constant's value (drawn: rounded as its draws are), else the upper clamp
        double largest = DistributionType.CONSTANT.configName().equals(spec.type()) ? spec.sample(new SplittableRandom(0))
                : spec.isInt() ? Math.floor(spec.max()) : spec.max();
        if (largest <= 0) {
            a.problem(a.pathOf(ArrivalSettings.INTER_ARRIVAL_US), "every gap would be 0 us (the distribution's largest"
                    + " value is " + DistributionBinder.fmt(largest) + (spec.isInt() ? ", rounded to whole microseconds" : "")
                    + "): the arrivals would never advance in time");
            return null;
        }
        return new ArrivalSpec.Distribution(spec);
    }

    /** The value of {@code setting}, which {@code process} requires: null (the problem recorded) when absent or invalid. */
    private static <T> T required(ConfigNode a, Setting<T> setting, String process) {
        T v = a.get(setting);
        if (!a.has(setting.key())) {
            a.problem(a.pathOf(setting.key()), "required for " + process);
        }
        return v;
    }
}
