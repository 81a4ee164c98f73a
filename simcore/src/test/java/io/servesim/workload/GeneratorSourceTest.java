package io.servesim.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.servesim.config.ConfigException;
import io.servesim.engine.Request;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Open-loop generation: determinism, RNG isolation, rates, prefixes, network, lifecycle, laziness. */
class GeneratorSourceTest {
    private static final String TWO_CLIENTS = """
            aggregate_rate: 20
            horizon_us: 60000000
            clients:
              - {id: a, rate_fraction: 0.5, input_distribution: {type: lognormal, params: {mean: 500, sigma: 1}},
                 output_distribution: {type: exponential, params: {mean: 100}}, streaming_probability: 0.5,
                 priority_distribution: {type: uniform, params: {min: 0, max: 3}}}
            %s
              - {id: b, rate_fraction: 0.5, arrival: {process: gamma, cv: 3},
                 input_distribution: {type: gaussian, params: {mean: 300, std_dev: 100}},
                 output_distribution: {type: constant, params: {value: 20}}, prefix: {group: sys, length: 64}}
            """;
    private static final String CLIENT_C = """
              - {id: c, rate_fraction: 1.0, arrival: {process: weibull, cv: 2},
                 input_distribution: {type: exponential, params: {mean: 50}},
                 output_distribution: {type: exponential, params: {mean: 50}}, network: {rtt_us: 5000, bandwidth_mbps: 1}}
            """;

    private static List<Request> generate(String yaml, long seed) {
        return Drain.all(Yaml.workload(yaml).open(seed, 0));
    }

    private static List<Drain.Shape> shapes(List<Request> rs, String client) {
        return rs.stream().filter(r -> r.tags().clientId().equals(client)).map(Drain.Shape::of).toList();
    }

    @Test
    void arrivalsPastTheSimulatedTimeARunMaySpanAreRefusedWhenTheWorkloadNeedsThem() {
        // constant gaps of 2.4e8 s: arrivals at 2.4e8, 4.8e8, 7.2e8 and 9.6e8 s lie within the 10^9 s a run may span,
        // the fifth (1.2e9 s) past it
        String yaml = """
                aggregate_rate: 4.1666666666666667e-9
                num_requests: %d
                clients:
                  - {id: sparse, arrival: {process: constant}, input_distribution: {type: constant, params: {value: 10}},
                     output_distribution: {type: constant, params: {value: 2}}}
                """;
        List<Request> four = generate(yaml.formatted(4), 1);
        assertEquals(List.of(240_000_000_000_000L, 480_000_000_000_000L, 720_000_000_000_000L, 960_000_000_000_000L),
                four.stream().map(Request::arrivalUs).toList(), "the fifth is drawn ahead but never needed");
        ConfigException e = assertThrows(ConfigException.class, () -> generate(yaml.formatted(5), 1));
        assertEquals("workload: client 'sparse' would send a request at 1.20e+09 s, past the simulated time a run may span"
                + " (" + WorkloadSettings.SIMULATED_TIME + "), before the workload's 5 requests: its arrivals are too sparse"
                + " for the requests asked; raise the rate, or lower num_requests, or set horizon_us", e.getMessage());
    }

    @Test
    void sameSeedSameStreamOtherSeedOtherStream() {
        String yaml = TWO_CLIENTS.formatted("");
        List<Request> first = generate(yaml, 1);
        List<Request> second = generate(yaml, 1);
        assertEquals(first.size(), second.size());
        for (int i = 0; i < first.size(); i++) {
            assertEquals(first.get(i).id(), second.get(i).id());
            assertEquals(Drain.Shape.of(first.get(i)), Drain.Shape.of(second.get(i)));
        }
        assertNotEquals(shapes(first, "a"), shapes(generate(yaml, 2), "a"));
    }

    @Test
    void addingAClientLeavesTheOthersRequestsUnchanged() {
        // Client c is inserted between a and b and takes half of a doubled aggregate rate, so a and b keep
        // their absolute rates (20 x 0.5 = 10 req/s = 40 x 0.25); their requests must be identical.
        List<Request> without = generate(TWO_CLIENTS.formatted(""), 7);
        List<Request> with = generate(TWO_CLIENTS.formatted(CLIENT_C).replace("aggregate_rate: 20", "aggregate_rate: 40")
                .replace("rate_fraction: 0.5", "rate_fraction: 0.25").replace("rate_fraction: 1.0", "rate_fraction: 0.5"), 7);
        assertTrue(shapes(with, "c").size() > 100);
        for (String client : List.of("a", "b")) {
            assertTrue(shapes(without, client).size() > 300);
            assertEquals(shapes(without, client), shapes(with, client), "client " + client);
        }
    }

    @Test
    void arrivalsAreOrderedAndRatesSplitByFraction() {
        // 10 req/s for 1,000 s split 0.7 / 0.3: 7,000 and 3,000 expected (Poisson standard errors 84 and 55).
        List<Request> rs = generate("""
                aggregate_rate: 10
                horizon_us: 1000000000
                clients:
                  - {id: big, rate_fraction: 7, input_distribution: {type: constant, params: {value: 10}},
                     output_distribution: {type: constant, params: {value: 1}}, network: {rtt_us: 1000, bandwidth_mbps: 0.1}}
                  - {id: small, rate_fraction: 3, input_distribution: {type: exponential, params: {mean: 500}},
                     output_distribution: {type: constant, params: {value: 1}}, network: {rtt_us: 1000, bandwidth_mbps: 0.1}}
                """, 3);
        for (int i = 1; i < rs.size(); i++) {
            assertTrue(rs.get(i).arrivalUs() >= rs.get(i - 1).arrivalUs(), "out of order at " + i);
            assertEquals(i, rs.get(i).id());
        }
        assertEquals(7000, shapes(rs, "big").size(), 420);
        assertEquals(3000, shapes(rs, "small").size(), 280);
    }

    @Test
    void networkRequestLegIsHalfTheRttPlusTransferTime() {
        // Constant 10 req/s: sends at 100,000 k us. 1,000 tokens x 4 B x 8 = 32,000 bits at 100 Mbit/s
        // = 320 us, plus the request leg's half of the 20,000 us RTT: arrival = 100,000 k + 10,320.
        // The response leg (the other 10,000 + 32 us per streamed token) is the client's to wait.
        List<Request> rs = generate("""
                aggregate_rate: 10
                num_requests: 5
                arrival: {process: constant}
                input_distribution: {type: constant, params: {value: 1000}}
                output_distribution: {type: constant, params: {value: 5}}
                network: {bytes_per_token: 4, bandwidth_mbps: 100, rtt_us: 20000}
                """, 1);
        assertEquals(List.of(110_320L, 210_320L, 310_320L, 410_320L, 510_320L),
                rs.stream().map(Request::arrivalUs).toList());
        assertEquals(List.of(100_000L, 200_000L, 300_000L, 400_000L, 500_000L),
                rs.stream().map(Request::sendUs).toList());
        assertEquals(10_001, rs.get(0).responseDelayUs(1));
    }

    @Test
    void sharedPrefixComesFirstAndIsSharedAcrossClients() {
        List<Request> rs = generate("""
                aggregate_rate: 10
                num_requests: 50
                clients:
                  - {id: x, prefix: {group: system-a, length: 512}, input_distribution: {type: constant, params: {value: 100}},
                     output_distribution: {type: constant, params: {value: 5}}}
                  - {id: y, prefix: {group: system-a, length: 512}, input_distribution: {type: constant, params: {value: 30}},
                     output_distribution: {type: constant, params: {value: 5}}}
                """, 1);
        long prefixHash = rs.get(0).input().rangeHash(0, 0, 512);
        for (Request r : rs) {
            assertEquals(512 + (r.tags().clientId().equals("x") ? 100 : 30), r.inputTokens());
            assertEquals(prefixHash, r.input().rangeHash(0, 0, 512));
            assertEquals(new PrefixSpec("system-a", 512).contentId(), r.input().segmentId(0));
        }
        // After the prefix, content is unique per request.
        assertNotEquals(rs.get(0).input().rangeHash(0, 0, 540), rs.get(1).input().rangeHash(0, 0, 540));
    }

    @Test
    void lifecycleAndLimitsAreRespected() {
        // Constant 1 req/s from 10 s to 15 s: sends at 11, 12, 13, 14, 15 s.
        List<Request> rs = generate("""
                aggregate_rate: 1
                num_requests: 100
                arrival: {process: constant}
                lifecycle: {start_us: 10000000, stop_us: 15000000}
                max_output_tokens: 64
                input_distribution: {type: constant, params: {value: 10}}
                output_distribution: {type: constant, params: {value: 100}}
                """, 1);
        assertEquals(List.of(11_000_000L, 12_000_000L, 13_000_000L, 14_000_000L, 15_000_000L),
                rs.stream().map(Request::arrivalUs).toList());
        assertTrue(rs.stream().allMatch(r -> r.outputTokens() == 64 && r.maxOutputTokens() == 64));
        assertEquals(37, generate("""
                aggregate_rate: 1000
                num_requests: 37
                input_distribution: {type: constant, params: {value: 10}}
                output_distribution: {type: constant, params: {value: 1}}
                """, 1).size());
    }

    @Test
    void runHorizonAndWorkloadSeedApply() {
        String yaml = """
                seed: 99
                aggregate_rate: 100
                horizon_us: 2000000
                input_distribution: {type: exponential, params: {mean: 100}}
                output_distribution: {type: constant, params: {value: 1}}
                """;
        List<Request> full = Drain.all(Yaml.workload(yaml).open(1, 0));
        List<Request> cut = Drain.all(Yaml.workload(yaml).open(2, 1_000_000));
        assertTrue(full.get(full.size() - 1).arrivalUs() <= 2_000_000);
        assertTrue(cut.get(cut.size() - 1).arrivalUs() <= 1_000_000);
        // The workload's own seed wins over the run's, so the cut stream is a prefix of the full one.
        assertEquals(full.subList(0, cut.size()).stream().map(Drain.Shape::of).toList(),
                cut.stream().map(Drain.Shape::of).toList());
    }

    @Test
    void millionRequestsStreamLazilyInBoundedMemory() {
        // 1,000,000 requests from three clients (one with network reordering) pulled one at a time: the
        // source holds only the clients' reorder windows (a few drafts), never the requests.
        GeneratorSource source = (GeneratorSource) Yaml.workload("""
                aggregate_rate: 10000
                num_requests: 1000000
                clients:
                  - {id: a, rate_fraction: 0.5, input_distribution: {type: lognormal, params: {mean: 800, sigma: 0.9}},
                     output_distribution: {type: exponential, params: {mean: 200}}, network: {rtt_us: 2000, bandwidth_mbps: 10}}
                  - {id: b, rate_fraction: 0.3, arrival: {process: gamma, cv: 2}, prefix: {group: p, length: 256},
                     input_distribution: {type: exponential, params: {mean: 300}}, output_distribution: {type: constant, params: {value: 9}}}
                  - {id: c, rate_fraction: 0.2, arrival: {process: bursty, spike_factor: 4, spike_interval_us: 1000000, spike_duration_us: 100000},
                     input_distribution: {type: uniform, params: {min: 1, max: 100}}, output_distribution: {type: constant, params: {value: 1}}}
                """).open(5, 0);
        long n = 0;
        long lastArrival = 0;
        int maxBuffered = 0;
        for (Request r = source.next(); r != null; r = source.next()) {
            assertTrue(r.arrivalUs() >= lastArrival);
            lastArrival = r.arrivalUs();
            n++;
            if ((n & 1023) == 0) {
                maxBuffered = Math.max(maxBuffered, source.bufferedDrafts());
            }
        }
        assertEquals(1_000_000, n);
        // Client a's window: delays up to 2 ms + bits / 10 Mbit/s, at 5,000 req/s: tens of drafts.
        assertTrue(maxBuffered < 1000, "buffered " + maxBuffered);
        assertEquals(0, source.activeSessions());
    }
}
