package io.servesim.plan;

import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A probe run with several seeds counts as its worst run ({@link Outcome#worst}). */
class OutcomeTest {
    private static final List<Slo> SLOS = List.of(new Slo("ttft_p99_ms", 500, true));

    private static Outcome run(double ttftP99Ms, long completed) {
        return new Outcome(Map.of("ttft_p99_ms", ttftP99Ms), 100, completed, null);
    }

    @Test
    void theLeastSlackOfRunsThatMeetEveryObjective() {
        Outcome comfortable = run(250, 100); // slack 500 / 250 = 2
        Outcome tight = run(400, 100);       // slack 500 / 400 = 1.25
        assertSame(tight, Outcome.worst(List.of(comfortable, tight), SLOS));
        assertSame(tight, Outcome.worst(List.of(tight, comfortable), SLOS));
    }

    @Test
    void aRunMissingAnObjectiveOutranksOneWithLessSlackThatMeetsThem() {
        // slack 2 x 99/100 completed = 1.98, above the feasible run's 1.25: the miss counts, not the number
        Outcome unserved = run(250, 99);
        Outcome tight = run(400, 100);
        assertSame(unserved, Outcome.worst(List.of(tight, unserved), SLOS));
    }

    @Test
    void aFailedRunOutranksEveryMiss() {
        Outcome failed = Outcome.failed("IllegalStateException: boom");
        Outcome slow = run(5000, 100); // slack 0.1
        assertSame(failed, Outcome.worst(List.of(slow, failed), SLOS));
    }

    @Test
    void ofEqualRunsTheFirstSeedsCounts() {
        Outcome a = run(400, 100);
        Outcome b = run(400, 100);
        assertSame(a, Outcome.worst(List.of(a, b), SLOS));
    }
}
