package io.servesim.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.servesim.metrics.RecordSink;
import io.servesim.metrics.ReplicaCounts;
import io.servesim.metrics.RunSummary;
import io.servesim.run.RunPlan;
import io.servesim.run.SimConfigLoader;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The replica count follows the diurnal workload ({@code sweeps/workloads/diurnal-cycle.yaml}: rate
 * {@code 5 (1 + (9/11) cos(2 pi (t - 14 h) / 24 h))} req/s, 0.91 at 02:00, 9.09 at 14:00) with the lag the
 * policy and the lifecycle predict.
 *
 * <p>The policy is HPA's target-utilization on the windowed request rate per replica, target 1 req/s:
 * with {@code k} replicas it asks for {@code ceil(rate)} once {@code rate / k} leaves HPA's 10%
 * tolerance, so replica {@code k + 1} is decided when the windowed rate first exceeds {@code 1.1 k}
 * (3.3, 4.4, 5.5, 6.6 and 7.7 req/s on the rising half: from 3 replicas at midnight to 8 before the
 * peak). Scale-ups have no stabilization ({@code scale_up_window} 0); {@code scale_down_window} 30 min
 * keeps a starting replica from being cancelled while it is not yet ready. The signal averages the last
 * {@code W} = 1 h of arrivals, so the expected lag of replica {@code k + 1} behind the load curve is
 *
 * <pre>
 *   the time the 1 h mean of the analytic rate, (1/W) integral_{t-W}^{t} rate, exceeds 1.1 k
 *     (about W / 2 = 30 min after the rate itself does: a window mean of a near-linear ramp trails it by half the window)
 * + up to one check interval (15 s; 7.5 s on average) until the next check sees it
 * + provisioning 30 s + weight loading 70 s + warm-up 30 s = 130 s until the replica is ready.
 * </pre>
 *
 * The measured time is the first timeline row with more than {@code k} ready replicas. Its deviation from
 * the prediction is the Poisson noise of the window's arrival count: {@code sqrt(1.1 k / W)} req/s,
 * i.e. that over the windowed curve's slope in seconds (112 s at 3.3 req/s to 208 s at 7.7 req/s);
 * each crossing must lie within 3 of those. The life-cycle part is checked exactly: arrivals do not
 * depend on the fleet and the crossings are an hour apart, so 10 more minutes of warm-up delays every
 * replica by exactly 10 minutes.
 *
 * <p>The engines' step time (a fixed 200 ms plus per-token terms) only keeps the day cheap to simulate
 * (few, long steps); the request-rate signal does not depend on it.
 */
class DiurnalLagTest {
    private static final Path WORKLOAD = Path.of("..", "sweeps", "workloads", "diurnal-cycle.yaml");
    private static final double WINDOW_S = 3600;
    private static final double CHECK_S = 15;
    private static final double STARTUP_S = 30 + 70 + 30;
    private static final double PERIOD_S = 86_400;
    private static final double PEAK_S = 14 * 3600;
    /** The sine's relative amplitude for a peak-to-trough ratio of 10: (10 - 1) / (10 + 1). */
    private static final double AMPLITUDE = 9.0 / 11;

    /** The workload's arrival rate at {@code t} seconds, req/s. */
    private static double rate(double t) {
        return 5 * (1 + AMPLITUDE * Math.cos(2 * Math.PI * (t - PEAK_S) / PERIOD_S));
    }

    /** The mean rate over the window ending at {@code t} (the analytic integral), req/s. */
    private static double windowRate(double t) {
        double w = 2 * Math.PI / PERIOD_S;
        double integral = 5 * WINDOW_S + 5 * AMPLITUDE / w * (Math.sin(w * (t - PEAK_S)) - Math.sin(w * (t - WINDOW_S - PEAK_S)));
        return integral / WINDOW_S;
    }

    /** First time (s, 1 s resolution) after 02:00 the windowed analytic rate exceeds {@code level}. */
    private static double windowCrossing(double level) {
        for (double t = 2 * 3600; t < PEAK_S; t += 1) {
            if (windowRate(t) > level) {
                return t;
            }
        }
        throw new AssertionError("the windowed rate never exceeds " + level);
    }

    private static RunSummary run(String warmup) throws Exception {
        String yaml = """
                seed: 7
                horizon_us: 50400000000        # 14:00, the peak
                deployment: {coefficients: {alpha: [0, 0, 0], beta: [200000, 5, 100]}, instances: 3}
                engine: {max_num_seqs: 256, max_num_batched_tokens: 16384, total_kv_blocks: 200000}
                policies: {routing: least-loaded}
                autoscaling:
                  enabled: true
                  min: 1
                  max: 16
                  check_interval: 15s
                  window: 3600s
                  provisioning_delay: 30s
                  load_time: 70s
                  warmup_duration: %s
                  policy: {name: target-utilization, params: {signal: request_rate_per_replica, target: 1,
                           scale_down_window: 1800s}}
                workload: '%s'
                """.formatted(warmup, WORKLOAD.toAbsolutePath().toString().replace("'", "''"));
        var tree = new ObjectMapper(new YAMLFactory()).readTree(yaml);
        return RunPlan.prepare(SimConfigLoader.bind(tree, Path.of("."))).run(RecordSink.NONE);
    }

    /** Time (s) of the first timeline row with more than {@code k} replicas ready. */
    private static double firstReadyAbove(List<ReplicaCounts> timeline, int k) {
        return timeline.stream().filter(r -> r.ready() > k).findFirst()
                .orElseThrow(() -> new AssertionError("never more than " + k + " ready")).timeUs() / 1e6;
    }

    @Test
    void replicasFollowTheDiurnalRateWithTheWindowCheckAndStartupLag() throws Exception {
        RunSummary base = run("30s");
        RunSummary slowWarmup = run("630s");
        List<ReplicaCounts> timeline = base.autoscaling().timeline();
        List<ReplicaCounts> slowTimeline = slowWarmup.autoscaling().timeline();
        assertEquals(STARTUP_S, base.autoscaling().timeToReadyMaxS(), 1e-9);
        for (int k = 3; k <= 7; k++) {
            double level = 1.1 * k;
            double decided = windowCrossing(level);
            double predicted = decided + CHECK_S / 2 + STARTUP_S;
            double slope = (windowRate(decided + 60) - windowRate(decided - 60)) / 120;
            double sigmaS = Math.sqrt(level / WINDOW_S) / slope;
            double measured = firstReadyAbove(timeline, k);
            double rateCrossing = decided;
            while (rate(rateCrossing) > level) {
                rateCrossing -= 1;
            }
            assertTrue(Math.abs(measured - predicted) <= 3 * sigmaS + CHECK_S / 2, "replica " + (k + 1) + ": ready at "
                    + measured + " s, predicted " + predicted + " s +- " + 3 * sigmaS + " (the rate crossed " + level
                    + " req/s at " + rateCrossing + " s)");
            assertTrue(predicted - rateCrossing > WINDOW_S / 2 - 300 && predicted - rateCrossing < WINDOW_S / 2 + 300,
                    "the derived lag behind the rate is about W/2 + check/2 + startup: " + (predicted - rateCrossing));
            assertEquals(measured + 600, firstReadyAbove(slowTimeline, k), 1e-6,
                    "10 more minutes of warm-up delay replica " + (k + 1) + " by exactly 10 minutes");
        }
    }
}
