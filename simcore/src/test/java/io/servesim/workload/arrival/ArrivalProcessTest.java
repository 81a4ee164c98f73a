package io.servesim.workload.arrival;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Measured rate and gap CV of each renewal process over 100,000 arrivals at 50 req/s, and the
 * shapes of the modulated ones in binned counts. The rate estimate n / t_n has relative standard
 * error about cv / sqrt(n) (0.6% at cv 2), the CV estimate a few times less than that for these shapes.
 */
class ArrivalProcessTest {
    private static final int N = 100_000;

    static Stream<Arguments> renewal() {
        return Stream.of(
                Arguments.of(new ArrivalSpec.Poisson(), 1.0),
                Arguments.of(new ArrivalSpec.Constant(), 0.0),
                Arguments.of(new ArrivalSpec.Gamma(0.5), 0.5),
                Arguments.of(new ArrivalSpec.Gamma(2), 2.0),
                Arguments.of(new ArrivalSpec.Weibull(0.5), 0.5),
                Arguments.of(new ArrivalSpec.Weibull(2), 2.0));
    }

    @ParameterizedTest
    @MethodSource("renewal")
    void rateAndCvMatch(ArrivalSpec spec, double cv) {
        ArrivalProcess p = spec.atRate(50);
        SplittableRandom rng = new SplittableRandom(11);
        double t = 0;
        double sum = 0;
        double sumSq = 0;
        for (int i = 0; i < N; i++) {
            double next = p.nextUs(t, rng);
            double gap = next - t;
            assertTrue(gap >= 0);
            sum += gap;
            sumSq += gap * gap;
            t = next;
        }
        double rate = N / (t / 1e6);
        double mean = sum / N;
        double sd = Math.sqrt(Math.max(0, sumSq / N - mean * mean));
        assertEquals(50, rate, 50 * (0.005 + 3 * cv / Math.sqrt(N)), spec + " rate");
        assertEquals(cv, sd / mean, 0.04 * cv + 1e-6, spec + " cv");
    }

    @Test
    void burstySpikesAreFiveFoldAndTheMeanRateIsExact() {
        // 10 req/s mean, 5x spikes of 10 s every 60 s: baseline b = 10 * 60 / (60 + 4 * 10) = 6 req/s,
        // spikes 30 req/s. Over 100 intervals: 100 * 10 s * 30 = 30,000 in spikes, 100 * 50 s * 6 = 30,000
        // outside (Poisson: standard error sqrt(30000) = 173, 0.6%).
        var spec = new ArrivalSpec.Bursty(5, 60_000_000, 10_000_000, 0);
        ArrivalProcess p = spec.atRate(10);
        SplittableRandom rng = new SplittableRandom(12);
        long inSpike = 0;
        long outside = 0;
        double horizonUs = 100 * 60e6;
        for (double t = p.nextUs(0, rng); t < horizonUs; t = p.nextUs(t, rng)) {
            if (spec.inSpike(t)) {
                inSpike++;
            } else {
                outside++;
            }
        }
        assertEquals(30_000, inSpike, 900);
        assertEquals(30_000, outside, 900);
        assertEquals(10.0, (inSpike + outside) / 6000.0, 0.2);
        assertEquals(6e-6, spec.baselinePerUs(10), 1e-18);
    }

    @Test
    void diurnalPeakAndTroughBinsFollowTheSinusoid() {
        // 20 req/s mean, period 1000 s, peak-to-trough 4 (a = 3/5) peaking at 250 s. A 100 s bin centred
        // on t0 expects 20 * (100 + a (P / pi) sin(pi 100 / P) cos(2 pi (t0 - 250) / P)) per period:
        // peak bin 20 * (100 + 0.6 * 318.31 * 0.30902) = 3180.1, trough bin 20 * (100 - 59.02) = 819.6,
        // over 20 periods 63,602 and 16,392 (Poisson standard errors 252 and 128).
        var spec = new ArrivalSpec.Diurnal(1_000_000_000L, 4, 250_000_000L);
        ArrivalProcess p = spec.atRate(20);
        SplittableRandom rng = new SplittableRandom(13);
        long peak = 0;
        long trough = 0;
        long total = 0;
        for (double t = p.nextUs(0, rng); t < 20 * 1e9; t = p.nextUs(t, rng)) {
            double phase = t % 1e9;
            peak += phase >= 200e6 && phase < 300e6 ? 1 : 0;
            trough += phase >= 700e6 && phase < 800e6 ? 1 : 0;
            total++;
        }
        double binShape = 0.6 * (1000 / Math.PI) * Math.sin(Math.PI * 100 / 1000);
        assertEquals(20 * 20 * (100 + binShape), peak, 1300);
        assertEquals(20 * 20 * (100 - binShape), trough, 650);
        // Mean rate over whole periods: 20 req/s x 20,000 s = 400,000 (standard error 632).
        assertEquals(400_000, total, 3200);
        assertEquals(4.0, spec.ratePerUs(20, 250e6) / spec.ratePerUs(20, 750e6), 1e-12);
    }
}
