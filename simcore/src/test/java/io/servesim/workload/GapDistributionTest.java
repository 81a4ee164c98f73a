package io.servesim.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.servesim.engine.Request;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Arrivals whose gaps come from a distribution block ({@code arrival: {process: distribution, inter_arrival_us}}, the
 * workload-generator design's {@code inter_arrival_time_dist_config}): the distribution sets the client's timing, and
 * the client takes no share of {@code aggregate_rate}.
 */
class GapDistributionTest {
    private static final String LENGTHS = "input_distribution: {type: constant, params: {value: 8}}\n"
            + "output_distribution: {type: constant, params: {value: 2}}\n";

    @Test
    void constantGapsSendOnTheirGrid() {
        // gaps of 250 ms from the client's start at 1 s: 1.25 s, 1.5 s, 1.75 s, 2 s
        List<Request> rs = Drain.all(Yaml.workload("num_requests: 4\n" + LENGTHS
                + "lifecycle: {start_us: 1s}\n"
                + "arrival: {process: distribution, inter_arrival_us: {type: constant, params: {value: 250000}}}\n").open(1, 0));
        assertEquals(List.of(1_250_000L, 1_500_000L, 1_750_000L, 2_000_000L), rs.stream().map(Request::arrivalUs).toList());
    }

    @Test
    void anEmpiricalGapDistributionSetsTheRateBesideARateClient() {
        // gaps of 100 ms or 300 ms, half each: mean 200 ms, 5 req/s over 200 s is 1000 arrivals (the count of a
        // renewal process has standard deviation sqrt(n) x cv = sqrt(1000) x 0.5 = 16). The other client has all of
        // aggregate_rate, 2 req/s: 400 (Poisson sd 20).
        GeneratorSpec g = Yaml.generator("aggregate_rate: 2\nhorizon_us: 200s\nclients:\n"
                + "  - {id: gaps, arrival: {process: distribution, inter_arrival_us: {type: empirical, pmf: {100000: 0.5, 300000: 0.5}}},\n"
                + "     input_distribution: {type: constant, params: {value: 8}}, output_distribution: {type: constant, params: {value: 2}}}\n"
                + "  - {id: rate, input_distribution: {type: constant, params: {value: 8}}, output_distribution: {type: constant, params: {value: 2}}}\n");
        assertEquals(List.of(0.0, 1.0), g.clients().stream().map(ClientSpec::rateFraction).toList());
        assertEquals(List.of(), g.warnings());
        List<Request> rs = Drain.all(g.open(3, 0));
        long gaps = rs.stream().filter(r -> r.tags().clientId().equals("gaps")).count();
        assertEquals(1000, gaps, 5 * 16);
        assertEquals(400, rs.size() - gaps, 5 * 20);
        // every gap of the distribution client is 100 or 300 ms
        List<Long> times = rs.stream().filter(r -> r.tags().clientId().equals("gaps")).map(Request::arrivalUs).toList();
        for (int i = 1; i < times.size(); i++) {
            long gap = times.get(i) - times.get(i - 1);
            assertEquals(true, gap == 100_000 || gap == 300_000, "gap " + gap);
        }
    }

    @Test
    void configProblemsNameTheirPath() {
        String gaps = "arrival: {process: distribution, inter_arrival_us: {type: constant, params: {value: 1000}}}\n";
        assertEquals(List.of("workload.aggregate_rate: not used: every client's arrival process is distribution, whose"
                + " inter_arrival_us sets its rate; remove aggregate_rate"),
                Yaml.problems("aggregate_rate: 5\nnum_requests: 3\n" + LENGTHS + gaps, Path.of(".")));
        assertEquals(List.of("workload.rate_fraction: not used: this client's arrival process is distribution, whose"
                + " inter_arrival_us sets its rate (it takes no share of aggregate_rate)"),
                Yaml.problems("num_requests: 3\nrate_fraction: 0.5\n" + LENGTHS + gaps, Path.of(".")));
        assertEquals(List.of("workload.arrival.inter_arrival_us: required for distribution: the gaps between arrivals, a"
                + " distribution block in microseconds, e.g. {type: lognormal, params: {mean: 100000, sigma: 1.2}}"),
                Yaml.problems("num_requests: 3\n" + LENGTHS + "arrival: {process: distribution}\n", Path.of(".")));
        assertEquals(List.of("workload.arrival.inter_arrival_us: every gap would be 0 us (the distribution's largest value"
                + " is 0, rounded to whole microseconds): the arrivals would never advance in time"),
                Yaml.problems("num_requests: 3\n" + LENGTHS + "arrival: {process: distribution, inter_arrival_us:"
                        + " {type: constant, params: {value: 0}}}\n", Path.of(".")));
    }
}
