import io.servesim.policy.api.Instances;
import io.servesim.policy.api.RequestView;
import io.servesim.policy.api.RoutingPolicy;

/**
 * Routing as code: the instance with the most of this request's prompt cached, each cached block worth as much as
 * one request of load less; ties go to the lowest position. It reads the signals prefix_cache, queue_depth and
 * running, because its source calls cachedPrefixBlocks and load. Also the initial program of an OpenEvolve run that
 * evolves routing code (scripts/openevolve_evaluator.py).
 */
public final class PrefixAwareLeastLoad implements RoutingPolicy {
    private static final double BLOCK_WORTH = 1.0;

    @Override
    public int route(RequestView request, Instances instances, long nowUs) {
        int best = 0;
        double bestScore = Double.NEGATIVE_INFINITY;
        for (int i = 0; i < instances.count(); i++) {
            double score = BLOCK_WORTH * instances.cachedPrefixBlocks(i) - instances.load(i);
            if (score > bestScore) {
                best = i;
                bestScore = score;
            }
        }
        return best;
    }
}
