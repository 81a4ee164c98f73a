package io.servesim.policy.routing;

import io.servesim.cluster.ClusterView;
import io.servesim.cluster.RoutingPolicy;
import io.servesim.cluster.Signal;
import io.servesim.engine.Request;
import io.servesim.policy.PolicyContext;
import io.servesim.policy.PolicySpec;
import java.util.Set;

/**
 * {@code dp-load-balancer}: vLLM's internal data-parallel load balancer, which sends each request to a DP rank of one
 * deployment ({@code DPLBAsyncMPClient.get_core_engine_for_request}, {@code vllm/v1/engine/core_client.py}, vLLM 0.19):
 * the rank of least {@code score = 4 x waiting + running}, the first such rank from its start index (0 for the only
 * API server) on ties, over the counts the DP coordinator last published (every 100 ms while they change,
 * {@code stats_update_interval_ms}, {@code vllm/v1/engine/coordinator.py}), each chosen rank's waiting count raised by
 * one until the next publication ("Increment local waiting count for better balancing between stats updates from the
 * coordinator"). Here a publication is taken at the first decision at or after each 100 ms mark, from the ranks' live
 * waiting and running counts. No params; its score is minus the load score it minimizes (component {@code score}).
 */
final class DpLoadBalancer implements RoutingPolicy {
    /** The DP coordinator's stats publication interval ({@code stats_update_interval_ms} default), microseconds. */
    static final long PUBLISH_INTERVAL_US = 100_000;
    /** Weight of a waiting request against a running one in the score. */
    static final int WAITING_WEIGHT = 4;

    private final long[] waiting;
    private final long[] running;
    private final ScoreSheet sheet;
    private final double[] scores;
    private final double[] load;
    private long nextPublishUs;

    private DpLoadBalancer(int instances) {
        waiting = new long[instances];
        running = new long[instances];
        sheet = new ScoreSheet(instances);
        scores = sheet.scores;
        load = sheet.component("score");
    }

    static RoutingPolicy create(PolicySpec spec, PolicyContext ctx) {
        return new DpLoadBalancer(ctx.instances());
    }

    @Override
    public int route(Request r, ClusterView v, long nowUs) {
        int n = v.instances();
        if (nowUs >= nextPublishUs) {
            for (int i = 0; i < n; i++) {
                waiting[i] = v.queueDepth(i) + v.inTransit(i);
                running[i] = v.running(i);
            }
            nextPublishUs = (nowUs / PUBLISH_INTERVAL_US + 1) * PUBLISH_INTERVAL_US;
        }
        int best = 0;
        long bestScore = Long.MAX_VALUE;
        for (int i = 0; i < n; i++) {
            long score = WAITING_WEIGHT * waiting[i] + running[i];
            load[i] = score;
            scores[i] = -score;
            if (score < bestScore) {
                bestScore = score;
                best = i;
            }
        }
        waiting[best]++;
        return best;
    }

    @Override
    public double[] lastScores() {
        return scores;
    }

    @Override
    public java.util.Map<String, double[]> lastBreakdown() {
        return sheet.components();
    }

    @Override
    public Set<Signal> signalsRead() {
        return Load.SIGNALS;
    }
}
