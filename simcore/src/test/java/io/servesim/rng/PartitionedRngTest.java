package io.servesim.rng;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class PartitionedRngTest {
    @Test
    void streamsDependOnlyOnSeedAndName() {
        PartitionedRng rng = new PartitionedRng(42);
        SplittableRandom a1 = rng.stream("arrivals");
        // drawing from another subsystem in between must not shift "arrivals"
        SplittableRandom other = rng.stream("lengths");
        for (int i = 0; i < 1000; i++) {
            other.nextLong();
        }
        SplittableRandom a2 = new PartitionedRng(42).stream("arrivals");
        for (int i = 0; i < 100; i++) {
            assertEquals(a2.nextLong(), a1.nextLong());
        }
        assertNotEquals(rng.stream("arrivals").nextLong(), rng.stream("lengths").nextLong());
        assertNotEquals(new PartitionedRng(1).stream("x").nextLong(), new PartitionedRng(2).stream("x").nextLong());
    }
}
