package io.servesim.workload.arrival;

import io.servesim.config.ConfigNode;

/**
 * Binds {@code arrival: {process, ...}} strictly: each process ({@link ArrivalType}) accepts only its
 * own parameters (see {@link ArrivalSpec}), unknown process names list the valid ones
 * ({@link ArrivalType#names()}), and every problem names its path
 * ({@code workload.clients[1].arrival.cv: must be > 0}).
 */
public final class ArrivalBinder {
    /** One day, the default diurnal period. */
    public static final long DAY_US = 86_400_000_000L;
    static final double MAX_GAMMA_CV = 10;
    static final double MAX_WEIBULL_CV = 20;
    private static final long UNSET = Long.MIN_VALUE;

    private ArrivalBinder() {
    }

    /** The process of a present or absent {@code arrival} node (absent: Poisson); null when invalid. */
    public static ArrivalSpec bind(ConfigNode a) {
        if (!a.present()) {
            return new ArrivalSpec.Poisson();
        }
        String process = a.choice("process", null, ArrivalType.names());
        if (process == null) {
            if (!a.has("process")) {
                a.problem(a.pathOf("process"), "required; valid: " + String.join(", ", ArrivalType.names()));
            }
            return null;
        }
        ArrivalSpec spec = ArrivalType.of(process).bind(a);
        a.finish();
        return spec;
    }

    /** {@link ArrivalType#GAMMA}: {@code cv} in (0, {@value #MAX_GAMMA_CV}]. */
    static ArrivalSpec gamma(ConfigNode a) {
        double cv = cv(a, MAX_GAMMA_CV);
        return Double.isNaN(cv) ? null : new ArrivalSpec.Gamma(cv);
    }

    /** {@link ArrivalType#WEIBULL}: {@code cv} in (0, {@value #MAX_WEIBULL_CV}]. */
    static ArrivalSpec weibull(ConfigNode a) {
        double cv = cv(a, MAX_WEIBULL_CV);
        return Double.isNaN(cv) ? null : new ArrivalSpec.Weibull(cv);
    }

    private static double cv(ConfigNode a, double max) {
        double cv = a.doubleValue("cv", Double.NaN, -Double.MAX_VALUE, Double.MAX_VALUE);
        if (!a.has("cv")) {
            a.problem(a.pathOf("cv"), "required for " + a.stringValue("process", "") + " (coefficient of variation of the gaps)");
            return Double.NaN;
        }
        if (Double.isNaN(cv)) {
            return cv;
        }
        if (cv <= 0) {
            a.problem(a.pathOf("cv"), "must be > 0");
            return Double.NaN;
        }
        if (cv > max) {
            a.problem(a.pathOf("cv"), "must be <= " + (long) max + ", got " + cv);
            return Double.NaN;
        }
        return cv;
    }

    /** {@link ArrivalType#BURSTY}: spike factor >= 1, spikes shorter than their interval. */
    static ArrivalSpec bursty(ConfigNode a) {
        double factor = a.doubleValue("spike_factor", Double.NaN, -Double.MAX_VALUE, Double.MAX_VALUE);
        long interval = a.longValue("spike_interval_us", UNSET, Long.MIN_VALUE, Long.MAX_VALUE);
        long duration = a.longValue("spike_duration_us", UNSET, Long.MIN_VALUE, Long.MAX_VALUE);
        long first = a.longValue("first_spike_us", 0, 0, Long.MAX_VALUE);
        boolean ok = required(a, "spike_factor") & required(a, "spike_interval_us") & required(a, "spike_duration_us");
        ok &= !Double.isNaN(factor) && interval != UNSET && duration != UNSET;
        if (factor < 1) {
            a.problem(a.pathOf("spike_factor"), "must be >= 1 (the spike rate is this multiple of the baseline)");
            ok = false;
        }
        if (interval != UNSET && interval <= 0) {
            a.problem(a.pathOf("spike_interval_us"), "must be > 0");
            ok = false;
        }
        if (duration != UNSET && (duration <= 0 || interval > 0 && duration >= interval)) {
            a.problem(a.pathOf("spike_duration_us"), "must be > 0 and < spike_interval_us (" + interval + ")");
            ok = false;
        }
        return ok ? new ArrivalSpec.Bursty(factor, interval, duration, first) : null;
    }

    /** {@link ArrivalType#DIURNAL}: ratio >= 1, peak inside the period (default one day). */
    static ArrivalSpec diurnal(ConfigNode a) {
        long period = a.longValue("period_us", DAY_US, Long.MIN_VALUE, Long.MAX_VALUE);
        double ratio = a.doubleValue("peak_to_trough_ratio", Double.NaN, -Double.MAX_VALUE, Double.MAX_VALUE);
        long peak = a.longValue("peak_us", 0, 0, Long.MAX_VALUE);
        boolean ok = required(a, "peak_to_trough_ratio") && !Double.isNaN(ratio);
        if (period <= 0) {
            a.problem(a.pathOf("period_us"), "must be > 0");
            ok = false;
        }
        if (ratio < 1) {
            a.problem(a.pathOf("peak_to_trough_ratio"), "must be >= 1");
            ok = false;
        }
        if (period > 0 && peak >= period) {
            a.problem(a.pathOf("peak_us"), "must be < period_us (" + period + ")");
            ok = false;
        }
        return ok ? new ArrivalSpec.Diurnal(period, ratio, peak) : null;
    }

    private static boolean required(ConfigNode a, String key) {
        if (!a.has(key)) {
            a.problem(a.pathOf(key), "required for " + a.stringValue("process", ""));
            return false;
        }
        return true;
    }
}
