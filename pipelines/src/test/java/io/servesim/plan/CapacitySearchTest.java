package io.servesim.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.servesim.config.StrictJson;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The capacity search: exact on its grid whatever the rates per round, equal to a scan of a fine grid on the kernel,
 * and equal to the closed form of an M/D/1 queue.
 */
class CapacitySearchTest {
    private static final Slo TTFT_MEAN = new Slo("ttft_mean_ms", 30, true);

    /** A run that meets {@code ttft_mean_ms <= 30} up to {@code capacity} req/s and misses it above. */
    private static Outcome threshold(double rate, double capacity) {
        return new Outcome(Map.of("ttft_mean_ms", rate <= capacity ? 20.0 : 40.0), 100, 100, null);
    }

    private static CapacitySearch.State search(CapacitySearch s, double capacity, int[] runs) {
        Results results = new Results();
        for (CapacitySearch.State st = s.state(results); ; st = s.state(results)) {
            if (st.done()) {
                return st;
            }
            for (double rate : st.pending()) {
                results.put(new Probe.Key(0, rate, 100), threshold(rate, capacity));
                runs[0]++;
            }
        }
    }

    @ParameterizedTest
    @CsvSource({"1, 37.3", "2, 37.3", "3, 37.3", "5, 37.3", "1, 0.2", "3, 0.2", "1, 500", "3, 500", "1, 64", "3, 64"})
    void theCapacityIsTheHighestGridRateMeetingTheSloWhateverTheRatesPerRound(int k, double capacity) {
        // grid 0.5 x j up to 100 req/s, starting at 4: the answer is floor(capacity / 0.5) x 0.5 (37 for 37.3, 64 for
        // 64), 0 when even 0.5 misses (0.2), and the grid's top, capped, when 100 meets (500)
        RateGrid grid = new RateGrid(0, 0.5, 100);
        CapacitySearch s = new CapacitySearch(0, grid, 100, List.of(TTFT_MEAN), k, 4, null);
        int[] runs = {0};
        CapacitySearch.State st = search(s, capacity, runs);
        double expected = Math.min(100, Math.floor(capacity / 0.5) * 0.5);
        assertEquals(expected, s.capacityRps(st), 1e-9);
        assertEquals(capacity >= 100, CapacitySearch.capped(st));
        // doubling from 4 to past the capacity, then halving a bracket of up to 200 grid steps: log2(200) ~ 8 rounds
        assertTrue(runs[0] <= 20 * k, runs[0] + " runs");
    }

    @Test
    void aPlansGridIsAnchoredAtItsTarget() {
        // target 24, step 0.48: the grid is 24 + 0.48 j; known to meet at 24, the capacity 30.2 lies between
        // 24 + 13 x 0.48 = 30.24 (misses) and 24 + 12 x 0.48 = 29.76 (meets)
        RateGrid grid = new RateGrid(24, 0.48, 384);
        CapacitySearch s = new CapacitySearch(0, grid, 100, List.of(TTFT_MEAN), 1, Double.NaN, true);
        CapacitySearch.State st = search(s, 30.2, new int[1]);
        assertEquals(29.76, s.capacityRps(st), 1e-9);
        assertEquals(30.24, s.missRps(st), 1e-9);
        // known to miss at 24: the capacity is below the target, on the same grid
        CapacitySearch below = new CapacitySearch(0, grid, 100, List.of(TTFT_MEAN), 1, Double.NaN, false);
        assertEquals(24 - 8 * 0.48, below.capacityRps(search(below, 20.2, new int[1])), 1e-9, "24 - 8 x 0.48 = 20.16");
    }

    /** A run config read from text. */
    static ObjectNode config(String yaml) throws Exception {
        return (ObjectNode) StrictJson.yaml().readTree(yaml);
    }

    @Test
    void anMD1QueueSustainsWhatPollaczekKhinchineSays() throws Exception {
        // One engine running one request at a time (max_num_seqs 1), each 100 prompt tokens and 1 output token: its
        // single prefill step is the whole service, a constant D = 10 ms (blackbox beta0 = 10,000 us, every other
        // coefficient 0). Poisson arrivals at lambda make an M/D/1 queue: by Pollaczek-Khinchine the mean wait is
        // W = rho D / (2 (1 - rho)), rho = lambda D, and TTFT = W + D. The SLO ttft_mean_ms <= 30 = 3 D holds while
        // rho / (2 (1 - rho)) <= 2, i.e. rho <= 0.8: lambda* = 0.8 / 10 ms = 80 req/s. 50,000 requests estimate the mean
        // wait W = 2 D to about 6% (its samples are correlated over ~1 / (1 - sqrt(rho))^2 = 89 services); as
        // dW/drho = D / (2 (1 - rho)^2) = 12.5 D at rho = 0.8, an error of 0.06 x 2 D moves rho* by 0.12 / 12.5 ~ 0.01,
        // about 1.2% of 80: the search, on a 0.5 req/s grid, must land within 4% of 80.
        ObjectNode tree = config("""
                seed: 7
                deployment: {latency_model: blackbox, coefficients: {alpha: [0, 0, 0], beta: [10000, 0, 0]}}
                engine: {max_num_seqs: 1, max_num_batched_tokens: 2048, block_size: 16, total_kv_blocks: 1000,
                         max_model_len: 4096, enable_prefix_caching: false}
                workload:
                  aggregate_rate: 50
                  num_requests: 50000
                  input_distribution: {type: constant, params: {value: 100}}
                  output_distribution: {type: constant, params: {value: 1}}
                """);
        PlanSpec plan = CapacitySpec.of("md1", tree, Path.of("."), List.of(TTFT_MEAN), 0.5, 400.0, null);
        Drive.Done done = Drive.search(new PlanSearch(plan, Map.of()), p -> Drive.kernel(plan, p));
        double capacity = done.result().candidates().get(0).capacityRps();
        assertEquals(80, capacity, 80 * 0.04, "lambda* = 0.8 / D");
        // at half the load the mean TTFT is D + 0.5 D / (2 x 0.5) = 15 ms
        Outcome half = Drive.kernel(plan, new Probe(0, 50, 50000, Stage.CAPACITY));
        assertEquals(15, half.value("ttft_mean_ms"), 15 * 0.04);
    }

    @Test
    void onTheKernelTheSearchFindsWhatAFineGridScanFinds() throws Exception {
        // Llama-3.1-8B on one H100 (roofline), 300 chat requests, TTFT p99 <= 500 ms and TPOT p90 <= 50 ms: every rate
        // of the 0.25 req/s grid from 0.25 up is run until two in a row miss; the capacity is the last rate before the
        // first miss. The search (from 4 req/s, 1 and 3 rates a round) must give that rate.
        ObjectNode tree = config("""
                seed: 5
                deployment: {model: meta-llama/llama-3.1-8b-instruct, hardware: H100, tp: 1, latency_model: roofline}
                engine: {max_num_seqs: 256, max_num_batched_tokens: 2048, block_size: 16}
                workload: {scenario: chat, arrival: {process: poisson}, aggregate_rate: 4, num_requests: 300}
                """);
        List<Slo> slos = List.of(new Slo("ttft_p99_ms", 500, true), new Slo("tpot_p90_ms", 50, true));
        PlanSpec plan = CapacitySpec.of("fine", tree, Path.of("."), slos, 0.25, 64.0, null);
        double scanned = 0;
        int misses = 0;
        for (int j = 1; misses < 2; j++) {
            double rate = plan.grid().rate(j);
            if (Drive.kernel(plan, new Probe(0, rate, 300, Stage.CAPACITY)).feasible(slos)) {
                assertEquals(0, misses, "the SLO metrics grow with the rate: " + rate + " meets after a miss");
                scanned = rate;
            } else {
                misses++;
            }
        }
        for (int k : new int[] {1, 3}) {
            PlanSpec withK = new PlanSpec(plan.name(), plan.base(), plan.baseDir(), plan.targetRps(), plan.startRps(), slos,
                    plan.candidates(), new SearchSettings(300, 300, 2, 1, 0.25, 64, k), plan.seeds());
            Drive.Done done = Drive.search(new PlanSearch(withK, Map.of()), p -> Drive.kernel(withK, p));
            assertEquals(scanned, done.result().candidates().get(0).capacityRps(), 1e-9, k + " rates a round");
        }
    }
}
