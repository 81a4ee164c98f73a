package io.servesim.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/**
 * The search logic on a model of deployments, without the kernel: a candidate sustains {@code replicas x per-replica
 * rate} (a P/D fleet, the least of its pools' rates); at a load rho = rate / sustained its TTFT p99 is
 * {@code 100 ms / (1 - rho)}, so it meets {@code ttft_p99_ms <= 500} up to rho = 0.8 exactly. A short trace flatters
 * it (transients: a trace of n requests sees {@code 1 + 60 / n} times the rate it sustains), and each family is off
 * by its own few percent on it, so short traces misrank candidates and the full trace must decide.
 */
class PlanSearchTest {
    private static final Slo TTFT = new Slo("ttft_p99_ms", 500, true);
    private static final SearchSettings SEARCH = new SearchSettings(100, 1000, 3, 2, 0.5, 400, 1);

    /** A space of {@code gpus} GPU types at TP 1 and 2, 1 to {@code maxReplicas} replicas, one engine setting. */
    static PlanSpec space(double target, int gpus, int maxReplicas, boolean pd, SearchSettings search) {
        List<Candidate> out = new ArrayList<>();
        for (int g = 0; g < gpus; g++) {
            for (int tp : List.of(1, 2)) {
                for (int n = 1; n <= maxReplicas; n++) {
                    out.add(new Candidate(out.size(), "G" + g + "-tp" + tp + "-x" + n + "-e", "G" + g, tp,
                            new Fleet.Aggregated(n), "e", Map.of(), 1.0 + g * 0.7, "test"));
                }
                if (pd) {
                    for (int p = 1; p <= 3; p++) {
                        for (int d = 1; d <= 3; d++) {
                            out.add(new Candidate(out.size(), "G" + g + "-tp" + tp + "-pd" + p + "p" + d + "d-e", "G" + g, tp,
                                    new Fleet.Disaggregated(p, d), "e", Map.of(), 1.0 + g * 0.7, "test"));
                        }
                    }
                }
            }
        }
        return new PlanSpec("model", JsonNodeFactory.instance.objectNode(), Path.of("."), target, Double.NaN, List.of(TTFT),
                out, search, List.of(1L));
    }

    /** The model: the rate {@code c} sustains (GPU type g: 3 + 2.5 g req/s per replica at TP 1, x TP^0.8). */
    static double sustained(Candidate c) {
        double perReplica = (3 + 2.5 * (c.gpu().charAt(1) - '0')) * Math.pow(c.tp(), 0.8);
        if (c.fleet() instanceof Fleet.Disaggregated d) {
            return Math.min(d.prefill() * perReplica * 1.6, d.decode() * perReplica * 1.1);
        }
        return c.fleet().instances() * perReplica;
    }

    /** What {@code c} seems to sustain on a trace of {@code requests}: a family's own 1.06-1.1x flattery on the full one. */
    static double effective(Candidate c, int requests) {
        int h = c.family() == null ? 0 : Math.floorMod(c.family().hashCode(), 7);
        return sustained(c) * (1 + 60.0 / requests * (1 + h / 10.0));
    }

    /** The model's outcome of a probe: TTFT p99 100 / (1 - rho) ms, growing on past rho = 1. */
    static Outcome model(PlanSpec plan, Probe p) {
        double rho = p.rateRps() / effective(plan.candidates().get(p.candidate()), p.requests());
        double ttft = rho < 1 ? 100 / (1 - rho) : 1e4 * rho;
        return new Outcome(Map.of("ttft_p99_ms", ttft), p.requests(), p.requests(), null);
    }

    /**
     * The brute-force answers: every candidate run on the full trace at the target, those meeting every SLO at the least
     * price ({@link Candidate#PRICE}: cost per hour, then GPUs); empty when none meets them.
     */
    static List<Candidate> bruteForce(PlanSpec plan, Function<Probe, Outcome> evaluate) {
        Results all = new Results();
        int full = plan.search().confirmRequests();
        for (Candidate c : plan.candidates()) {
            Probe p = new Probe(c.index(), plan.targetRps(), full, Stage.CONFIRM);
            all.put(p.key(), evaluate.apply(p));
        }
        Candidate cheapest = CheapestCheck.best(plan.candidates(), all, plan.targetRps(), full, plan.slos());
        return cheapest == null ? List.of() : plan.candidates().stream().filter(c -> Candidate.PRICE.compare(c, cheapest) == 0
                && all.get(c.index(), plan.targetRps(), full).feasible(plan.slos())).toList();
    }

    /**
     * The plan's answer is the brute force's: one of its cheapest (null when there is none), and of those, all of
     * which the plan measured, the one sustaining the most.
     */
    static void assertBruteForceAnswer(PlanSpec plan, Drive.Done done, Function<Probe, Outcome> evaluate) {
        List<Candidate> cheapest = bruteForce(plan, evaluate);
        Candidate r = done.result().recommended();
        if (cheapest.isEmpty()) {
            assertNull(r);
            return;
        }
        assertTrue(cheapest.contains(r), r + " is not among the brute force's " + cheapest);
        for (Candidate c : cheapest) {
            assertTrue(done.result().of(c).capacityRps() <= done.result().of(r).capacityRps(), c.id() + " sustains more");
        }
    }

    @Test
    void theAnswerIsTheBruteForceOneForFarFewerRuns() {
        // 3 GPU types x TP 1, 2 x (1-12 replicas + 9 P/D pairs): 126 candidates, 72 aggregated; brute force runs each
        // on the full trace. Of the aggregated ones the search runs about 4 per family there (6 families; 22 of 72); every P/D
        // candidate no dearer than the answer runs there too (nothing prunes between pool ratios)
        PlanSpec plan = space(24, 3, 12, true, SEARCH);
        Drive.Done done = Drive.search(new PlanSearch(plan, Map.of()), p -> model(plan, p));
        assertBruteForceAnswer(plan, done, p -> model(plan, p));
        long fullRuns = plan.candidates().stream()
                .filter(c -> c.family() != null && done.results().get(c.index(), 24, 1000) != null).count();
        assertTrue(fullRuns <= 72 / 3, fullRuns + " full-trace runs of aggregated candidates at the target");
    }

    @Property(tries = 60)
    void onAnySpaceTheAnswerIsTheBruteForceOne(@ForAll @DoubleRange(min = 2, max = 80) double target,
                                               @ForAll @IntRange(min = 1, max = 4) int gpus,
                                               @ForAll @IntRange(min = 1, max = 16) int replicas,
                                               @ForAll boolean pd, @ForAll @IntRange(min = 1, max = 3) int keep,
                                               @ForAll @IntRange(min = 10, max = 1500) int screen) {
        SearchSettings search = new SearchSettings(screen, 1000, 3, keep, target / 50, target * 16, 1);
        PlanSpec plan = space(Math.round(target * 100) / 100.0, gpus, replicas, pd, search);
        Drive.Done done = Drive.search(new PlanSearch(plan, Map.of()), p -> model(plan, p));
        assertBruteForceAnswer(plan, done, p -> model(plan, p));
    }

    @Test
    void familiesAreBisectedAndTheirOtherCountsPruned() {
        // one GPU type, TP 1 and 2, 1-16 replicas: G0 sustains 3 req/s per replica at TP 1 (3 x 2^0.8 = 5.22 at TP 2),
        // 1.06-1.1x that on the full trace; at 24 req/s (rho <= 0.8) TP 1 needs 24 / 0.8 / (3 x 1.1) = 9.1 -> 10 replicas
        // at most and 24 / 0.8 / (3 x 1.06) = 9.4 -> 10 at least, TP 2 24 / 0.8 / (5.22 x 1.1) = 5.2 -> 6 (12 GPUs).
        // On the 100-request screen a replica looks 1.6-2x faster. Bisecting 16 counts takes ceil(log2(17)) = 5 runs
        PlanSpec plan = space(24, 1, 16, false, SEARCH);
        Drive.Done done = Drive.search(new PlanSearch(plan, Map.of()), p -> model(plan, p));
        Map<String, Long> byStatus = done.result().candidates().stream()
                .collect(Collectors.groupingBy(PlanResult.Verdict::status, Collectors.counting()));
        assertTrue(byStatus.get("pruned") >= 16, "at least half of the 32 never ran: " + byStatus);
        long screenRuns = plan.candidates().stream().filter(c -> done.results().get(c.index(), 24, 100) != null).count();
        assertTrue(screenRuns <= 2 * 5, screenRuns + " screen runs");
        Candidate r = done.result().recommended();
        assertEquals("G0-tp1-x10-e", r.id(), "10 replicas at TP 1 (10 GPUs, 10 USD/h) against 6 at TP 2 (12)");
        PlanResult.Verdict v = done.result().of(plan.candidates().get(r.index() + 1));
        assertTrue(v.status().equals("feasible") || v.reason().contains("more replicas than"), v.toString());
    }

    @Test
    void pdFleetsAreEachRunWithoutPruning() {
        // no order holds between pool ratios: every P/D candidate runs on the screen trace
        PlanSpec plan = space(24, 1, 2, true, SEARCH);
        Drive.Done done = Drive.search(new PlanSearch(plan, Map.of()), p -> model(plan, p));
        for (Candidate c : plan.candidates()) {
            if (c.family() == null) {
                assertTrue(done.results().get(c.index(), 24, 100) != null, c.id() + " ran on the screen");
                assertTrue(!done.result().of(c).status().equals("pruned"), c.id());
            }
        }
    }

    @Test
    void theCapacitiesOnTheFrontierAreTheModelsOnTheGrid() {
        // a capacity is the highest rate of the grid 24 + k x 0.5 where rho <= 0.8 on the full trace: 0.8 x what the
        // candidate seems to sustain there, rounded down to the grid
        PlanSpec plan = space(24, 2, 12, false, SEARCH);
        Drive.Done done = Drive.search(new PlanSearch(plan, Map.of()), p -> model(plan, p));
        assertTrue(!done.result().frontier().isEmpty());
        for (Candidate c : done.result().frontier()) {
            double expected = 24 + Math.floor((0.8 * effective(c, 1000) - 24) / 0.5 + 1e-9) * 0.5;
            assertEquals(expected, done.result().of(c).capacityRps(), 1e-9, c.id());
        }
        double cheapest = 0;
        double most = 0;
        for (Candidate c : done.result().frontier()) {
            assertTrue(c.costUsdPerHour() >= cheapest && done.result().of(c).capacityRps() > most, "the frontier rises");
            cheapest = c.costUsdPerHour();
            most = done.result().of(c).capacityRps();
        }
    }

    @Test
    void whenNothingMeetsTheSlosItSaysWhichNoneMetAndTheClosest() {
        // 200 req/s is out of reach of 2 replicas of anything here (at most 2 x 5.5 x 2^0.8 x 1.1 = 21 sustained); the
        // fastest, 2 replicas of G1 at TP 2, is the least overloaded
        PlanSpec plan = space(200, 2, 2, false, new SearchSettings(100, 1000, 3, 2, 4, 3200, 1));
        Drive.Done done = Drive.search(new PlanSearch(plan, Map.of()), p -> model(plan, p));
        assertNull(done.result().recommended());
        assertEquals(List.of("ttft_p99_ms <= 500"), done.result().unmet());
        assertEquals("G1-tp2-x2-e", done.result().closest().id(), "the fastest candidate comes closest");
    }

    @Test
    void theSameResultsAskForTheSameRounds() {
        // the search keeps nothing between calls: replaying the results in another order changes nothing
        PlanSpec plan = space(24, 2, 8, true, SEARCH);
        Drive.Done done = Drive.search(new PlanSearch(plan, Map.of()), p -> model(plan, p));
        PlanSearch again = new PlanSearch(plan, Map.of());
        Results replay = new Results();
        List<Probe> asked = new ArrayList<>();
        for (List<Probe> probes = again.next(replay); !probes.isEmpty(); probes = again.next(replay)) {
            asked.addAll(probes);
            probes.forEach(p -> replay.put(p.key(), done.results().get(p.candidate(), p.rateRps(), p.requests())));
        }
        assertEquals(done.runs(), asked.size());
        Set<Probe.Key> keys = asked.stream().map(Probe::key).collect(Collectors.toSet());
        assertEquals(done.runs(), keys.size(), "no probe is asked for twice");
    }

    @Test
    void invalidCandidatesAreLeftOutWithTheirReason() {
        PlanSpec plan = space(24, 1, 4, false, SEARCH);
        Map<Integer, String> invalid = new HashMap<>();
        invalid.put(0, "engine.total_kv_blocks: the weights leave no KV cache");
        Drive.Done done = Drive.search(new PlanSearch(plan, invalid), p -> model(plan, p));
        assertEquals("invalid", done.result().of(plan.candidates().get(0)).status());
        assertTrue(done.results().get(0, 24, 100) == null && done.results().get(0, 24, 1000) == null, "never run");
    }
}
