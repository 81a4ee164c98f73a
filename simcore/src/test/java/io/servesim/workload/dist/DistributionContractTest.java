package io.servesim.workload.dist;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The contract of every {@link DistributionType} (an exhaustive switch in {@link #example}, so a new
 * type does not compile until it has one), bound as token counts (integers) and as real values:
 * every draw lies within the clamps [min, max] (here chosen so that most types hit them), is an
 * integer when {@code is_int}, and the same seed gives the same draws.
 */
class DistributionContractTest {
    private static final int DRAWS = 20_000;

    /** A block of {@code type} clamped to [min, max] below its natural range where it has one. */
    private static String example(DistributionType type) {
        String params = switch (type) {
            case CONSTANT -> "{value: 7, min: 5, max: 9}";
            case UNIFORM -> "{min: 10.5, max: 50.5}";
            case GAUSSIAN -> "{mean: 100, std_dev: 80, min: 20, max: 150}";
            case EXPONENTIAL -> "{mean: 200, min: 10, max: 600}";
            case LOGNORMAL -> "{mu: 5, sigma: 1, min: 10, max: 600}";
            case PARETO -> "{alpha: 1.5, xm: 50, min: 60, max: 2000}";
            case WEIBULL -> "{shape: 0.8, mean: 300, min: 5, max: 1000}";
            case GAMMA -> "{shape: 0.5, mean: 300, min: 5, max: 1000}";
            case EMPIRICAL -> "{min: 5, max: 800}, pmf: {3: 0.25, 40.5: 0.25, 900: 0.5}";
        };
        return "{type: " + type.configName() + ", params: " + params + "}";
    }

    static Stream<Arguments> types() {
        return Arrays.stream(DistributionType.values()).flatMap(t -> Stream.of(DistributionBinder.Kind.TOKENS,
                DistributionBinder.Kind.REAL).map(k -> Arguments.of(Named.of(t.configName() + " as " + k, t), k)));
    }

    @ParameterizedTest
    @MethodSource("types")
    void drawsStayWithinTheClamps(DistributionType type, DistributionBinder.Kind kind) {
        DistributionSpec d = Dists.bind(example(type), kind, Path.of("."));
        assertEquals(type.configName(), d.type());
        assertEquals(kind == DistributionBinder.Kind.TOKENS, d.isInt());
        SplittableRandom rng = new SplittableRandom(3);
        for (int i = 0; i < DRAWS; i++) {
            double x = d.sample(rng);
            assertTrue(x >= d.min() && x <= d.max(), type + ": " + x + " outside [" + d.min() + ", " + d.max() + "]");
            assertTrue(!d.isInt() || x == Math.rint(x), type + ": " + x + " is not an integer");
        }
    }

    @ParameterizedTest
    @MethodSource("types")
    void sameSeedSameDraws(DistributionType type, DistributionBinder.Kind kind) {
        DistributionSpec d = Dists.bind(example(type), kind, Path.of("."));
        DistributionSpec again = Dists.bind(example(type), kind, Path.of("."));
        SplittableRandom a = new SplittableRandom(7);
        SplittableRandom b = new SplittableRandom(7);
        for (int i = 0; i < 1000; i++) {
            assertEquals(Double.doubleToLongBits(d.sample(a)), Double.doubleToLongBits(again.sample(b)), type + " draw " + i);
        }
    }
}
