package io.servesim.workload.arrival;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.servesim.config.ConfigNode;
import java.io.IOException;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The contract of every {@link ArrivalType} (an exhaustive switch in {@link #example}, so a new
 * process does not compile until it has one), bound from config at 50 req/s (a process that sets its own rate is
 * configured for 50 req/s): arrival times never
 * decrease (a gamma gap of high CV can round to 0 us), 100,000 arrivals realise the mean rate (within 3%: the modulated processes here span
 * 200 spike intervals or 20 diurnal periods), and the same seed gives the same arrivals.
 */
class ArrivalContractTest {
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static final int N = 100_000;
    private static final double RATE = 50;

    private static String example(ArrivalType type) {
        String params = switch (type) {
            case POISSON, CONSTANT, SPREAD -> "";
            case GAMMA -> ", cv: 2";
            case WEIBULL -> ", cv: 0.5";
            case BURSTY -> ", spike_factor: 5, spike_interval_us: 10000000, spike_duration_us: 2000000";
            case DIURNAL -> ", period_us: 100000000, peak_to_trough_ratio: 4";
            // its own rate: gaps of mean 20,000 us are 50 req/s
            case DISTRIBUTION -> ", inter_arrival_us: {type: lognormal, params: {mean: 20000, sigma: 1}}";
        };
        return "{process: " + type.configName() + params + "}";
    }

    static Stream<Arguments> types() {
        return Arrays.stream(ArrivalType.values()).map(t -> Arguments.of(Named.of(t.configName(), t)));
    }

    private static ArrivalProcess bind(ArrivalType type) throws IOException {
        ConfigNode root = ConfigNode.root(YAML.readTree("arrival: " + example(type)));
        ArrivalSpec spec = ArrivalBinder.bind(root.child("arrival"), java.nio.file.Path.of("."));
        root.throwIfProblems();
        // as the one stage of a staged load that lasts N / RATE seconds (the same as atRate but for spread: N arrivals)
        return spec.forStage(RATE, 0, (long) (N / RATE * 1e6));
    }

    @ParameterizedTest
    @MethodSource("types")
    void realisesTheMeanRate(ArrivalType type) throws IOException {
        ArrivalProcess p = bind(type);
        SplittableRandom rng = new SplittableRandom(5);
        double t = 0;
        for (int i = 0; i < N; i++) {
            double next = p.nextUs(t, rng);
            assertTrue(next >= t, type + ": arrival " + i + " at " + next + " before " + t);
            t = next;
        }
        assertEquals(RATE, N / (t / 1e6), 0.03 * RATE, type + " rate");
    }

    @ParameterizedTest
    @MethodSource("types")
    void sameSeedSameArrivals(ArrivalType type) throws IOException {
        ArrivalProcess p = bind(type);
        ArrivalProcess q = bind(type);
        SplittableRandom a = new SplittableRandom(9);
        SplittableRandom b = new SplittableRandom(9);
        double ta = 0;
        double tb = 0;
        for (int i = 0; i < 1000; i++) {
            ta = p.nextUs(ta, a);
            tb = q.nextUs(tb, b);
            assertEquals(Double.doubleToLongBits(ta), Double.doubleToLongBits(tb), type + " arrival " + i);
        }
    }
}
