package io.servesim.run;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.servesim.engine.EngineConfig;
import io.servesim.metrics.RequestRecord;
import io.servesim.workload.WorkloadSpec;
import java.util.concurrent.atomic.DoubleAdder;
import java.util.concurrent.atomic.LongAdder;
import org.junit.jupiter.api.Test;

/**
 * The engine as an M/D/1 queue: with max_num_seqs 1, constant 100-token prompts and one output
 * token, every request is served by exactly one step of S = b0 + b1 x 100 = 1000 + 10 x 100 = 2000 us,
 * FIFO, with no idle gaps while work waits. Poisson arrivals at rho = lambda x S = 0.7 give
 * lambda = 350 req/s, and the Pollaczek-Khinchine mean wait in queue
 * W = rho x S / (2 (1 - rho)) = 0.7 x 2000 / 0.6 = 2333.3 us, the scheduling delay (arrival to first step).
 * vLLM's queue time starts later, when the engine core takes the request in at the end of the step in flight: an
 * arrival finds the server busy with probability rho (PASTA) and then waits out a uniform residual of S / 2, so the
 * queue time averages W - rho x S / 2 = 2333.3 - 700 = 1633.3 us.
 */
class QueueingTheoryTest {
    @Test
    void meanWaitMatchesMd1() {
        EngineConfig cfg = new EngineConfig(1, 2048, 0, 0, 16, 10_000, false);
        WorkloadSpec spec = Workloads.of("""
                {aggregate_rate: 350, num_requests: 200000, input_distribution: {type: constant, params: {value: 100}},
                 output_distribution: {type: constant, params: {value: 1}}}""");
        DoubleAdder waitSum = new DoubleAdder();
        DoubleAdder queueSum = new DoubleAdder();
        LongAdder n = new LongAdder();
        var sim = new Simulation(SimSetup.single(cfg, LinearLatency.steps(1000, 10, 100)), spec.open(1, 0),
                (RequestRecord r) -> {
                    waitSum.add(r.schedulingDelayUs());
                    queueSum.add(r.queueingDelayUs());
                    n.increment();
                });
        var summary = sim.run();
        assertEquals(200_000, summary.count("completed"));
        double meanWaitUs = waitSum.sum() / n.sum();
        double expected = 0.7 * 2000 / (2 * (1 - 0.7));
        assertEquals(expected, meanWaitUs, 0.03 * expected, "mean wait " + meanWaitUs + " vs M/D/1 " + expected);
        double meanQueueUs = queueSum.sum() / n.sum();
        double expectedQueue = expected - 0.7 * 2000 / 2;
        assertEquals(expectedQueue, meanQueueUs, 0.03 * expectedQueue, "mean queue time " + meanQueueUs);
    }
}
