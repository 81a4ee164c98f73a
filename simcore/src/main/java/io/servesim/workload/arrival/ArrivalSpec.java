package io.servesim.workload.arrival;

import io.servesim.workload.dist.DistributionSpec;
import io.servesim.workload.dist.Samplers;
import io.servesim.workload.dist.SpecialFunctions;
import java.util.SplittableRandom;

/**
 * A client's arrival process as configured ({@code arrival: {process: ...}}), before its rate is
 * known. The rate is the client's share of the aggregate rate, and every process has exactly that
 * mean rate (BLIS {@code sim/workload/arrival.go}; bursty and diurnal are non-homogeneous Poisson
 * processes whose average over whole periods is that rate).
 * <ul>
 *   <li>{@code poisson}: exponential gaps, CV 1.</li>
 *   <li>{@code constant}: gaps of exactly 1/rate, CV 0.</li>
 *   <li>{@code gamma {cv}}: Gamma gaps of shape 1/cv^2 and scale cv^2/rate (ServeGen's best fit for
 *       bursty large-model traffic).</li>
 *   <li>{@code weibull {cv}}: Weibull gaps whose shape k solves CV(k) = cv and scale = (1/rate) / Gamma(1 + 1/k).</li>
 *   <li>{@code bursty {spike_factor, spike_interval_us, spike_duration_us, first_spike_us}}: Poisson
 *       at a baseline rate b, and at {@code spike_factor} x b during spikes of {@code spike_duration_us}
 *       that start every {@code spike_interval_us} from {@code first_spike_us} (default 0; before it the
 *       rate is b). b = rate x I / (I + (f - 1) D), so the mean over a whole interval is the configured rate.</li>
 *   <li>{@code diurnal {period_us, peak_to_trough_ratio, peak_us}}: Poisson with rate
 *       r(t) = rate x (1 + a cos(2 pi (t - peak_us) / period_us)), a = (R - 1) / (R + 1), so
 *       max / min = R and the mean over a period is the configured rate.</li>
 *   <li>{@code distribution {inter_arrival_us}}: gaps drawn from a distribution block in microseconds, the
 *       workload-generator design's {@code inter_arrival_time_dist_config} (a client profile's gaps from any
 *       {@code DistributionSampler} type); the distribution sets the client's rate, which then takes no
 *       share of the aggregate rate ({@link #hasRate()} is false).</li>
 *   <li>{@code spread}: only in a staged load, inference-perf's {@code constant} load (kubernetes-sigs/inference-perf
 *       @ 7de5ef2e, {@code inference_perf/loadgen/load_timer.py} {@code ConstantLoadTimer}): a stage of rate r and
 *       duration d sends exactly n = floor(r x d) requests, their gaps exponential and scaled to sum to d, so the last
 *       is sent at the stage's end ({@link SpreadProcess}).</li>
 * </ul>
 * Non-homogeneous processes are sampled by thinning (Lewis and Shedler 1979): candidates at the
 * peak rate, each kept with probability r(t) / peak.
 */
public sealed interface ArrivalSpec {
    /**
     * The process at a mean of {@code ratePerSecond} arrivals per second; a process without a rate of its own
     * ({@link #hasRate()} false) does not read it.
     */
    ArrivalProcess atRate(double ratePerSecond);

    /** Whether the process runs at the client's share of the aggregate rate (else its own parameters set its rate). */
    default boolean hasRate() {
        return true;
    }

    /**
     * The process during one stage of a staged load ({@code workload.stages}): from {@code startUs}, for
     * {@code durationUs}, at a mean of {@code ratePerSecond}. Most processes are the same as outside a stage.
     */
    default ArrivalProcess forStage(double ratePerSecond, long startUs, long durationUs) {
        return atRate(ratePerSecond);
    }

    /** Poisson arrivals. */
    record Poisson() implements ArrivalSpec {
        @Override
        public ArrivalProcess atRate(double ratePerSecond) {
            double meanGapUs = 1e6 / ratePerSecond;
            return (t, rng) -> t + -meanGapUs * Math.log(Samplers.openUnit(rng));
        }
    }

    /** Evenly spaced arrivals. */
    record Constant() implements ArrivalSpec {
        @Override
        public ArrivalProcess atRate(double ratePerSecond) {
            double gapUs = 1e6 / ratePerSecond;
            return (t, rng) -> t + gapUs;
        }
    }

    /** Gamma-distributed gaps with coefficient of variation {@code cv}. */
    record Gamma(double cv) implements ArrivalSpec {
        @Override
        public ArrivalProcess atRate(double ratePerSecond) {
            double shape = 1 / (cv * cv);
            double scaleUs = 1e6 / ratePerSecond * cv * cv;
            return (t, rng) -> t + scaleUs * Samplers.standardGamma(rng, shape);
        }
    }

    /** Weibull-distributed gaps with coefficient of variation {@code cv}. */
    record Weibull(double cv) implements ArrivalSpec {
        @Override
        public ArrivalProcess atRate(double ratePerSecond) {
            double k = SpecialFunctions.weibullShapeForCv(cv);
            double scaleUs = 1e6 / ratePerSecond / SpecialFunctions.gamma(1 + 1 / k);
            return (t, rng) -> t + scaleUs * Math.pow(-Math.log(Samplers.openUnit(rng)), 1 / k);
        }
    }

    /** Baseline Poisson traffic with periodic x-fold spikes. */
    record Bursty(double spikeFactor, long spikeIntervalUs, long spikeDurationUs, long firstSpikeUs) implements ArrivalSpec {
        /** Baseline rate per microsecond for a mean of {@code ratePerSecond}. */
        public double baselinePerUs(double ratePerSecond) {
            double interval = spikeIntervalUs;
            return ratePerSecond / 1e6 * interval / (interval + (spikeFactor - 1) * spikeDurationUs);
        }

        /** Whether {@code tUs} lies inside a spike. */
        public boolean inSpike(double tUs) {
            return tUs >= firstSpikeUs && (tUs - firstSpikeUs) % spikeIntervalUs < spikeDurationUs;
        }

        @Override
        public ArrivalProcess atRate(double ratePerSecond) {
            double base = baselinePerUs(ratePerSecond);
            double peak = base * spikeFactor;
            return (t, rng) -> thin(t, rng, peak, u -> inSpike(u) ? peak : base);
        }
    }

    /** Sinusoidal daily cycle. */
    record Diurnal(long periodUs, double peakToTroughRatio, long peakUs) implements ArrivalSpec {
        /** Rate per microsecond at {@code tUs} for a mean of {@code ratePerSecond}. */
        public double ratePerUs(double ratePerSecond, double tUs) {
            double a = (peakToTroughRatio - 1) / (peakToTroughRatio + 1);
            return ratePerSecond / 1e6 * (1 + a * Math.cos(2 * Math.PI * (tUs - peakUs) / periodUs));
        }

        @Override
        public ArrivalProcess atRate(double ratePerSecond) {
            double a = (peakToTroughRatio - 1) / (peakToTroughRatio + 1);
            double peak = ratePerSecond / 1e6 * (1 + a);
            return (t, rng) -> thin(t, rng, peak, u -> ratePerUs(ratePerSecond, u));
        }
    }

    /** Gaps drawn from {@code gapsUs} (whole microseconds, >= 0): the distribution sets the rate. */
    record Distribution(DistributionSpec gapsUs) implements ArrivalSpec {
        @Override
        public boolean hasRate() {
            return false;
        }

        @Override
        public ArrivalProcess atRate(double ratePerSecond) {
            return (t, rng) -> t + gapsUs.sample(rng);
        }
    }

    /** inference-perf's constant load: each stage's floor(rate x duration) requests spread over the stage. */
    record Spread() implements ArrivalSpec {
        /** Not defined outside a stage: the binder admits {@code spread} only in a staged load. */
        @Override
        public ArrivalProcess atRate(double ratePerSecond) {
            throw new IllegalStateException("spread arrivals exist only in a stage of a staged load");
        }

        @Override
        public ArrivalProcess forStage(double ratePerSecond, long startUs, long durationUs) {
            return new SpreadProcess(startUs, durationUs, (long) Math.floor(ratePerSecond * durationUs / 1e6));
        }
    }

    /** Next point of a Poisson process of intensity {@code rate(t) <= peakPerUs} after {@code t}, by thinning. */
    private static double thin(double t, SplittableRandom rng, double peakPerUs, java.util.function.DoubleUnaryOperator rate) {
        double u = t;
        while (true) {
            u += -Math.log(Samplers.openUnit(rng)) / peakPerUs;
            if (rng.nextDouble() * peakPerUs < rate.applyAsDouble(u)) {
                return u;
            }
        }
    }
}
