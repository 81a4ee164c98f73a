import io.servesim.policy.api.RequestView;
import io.servesim.policy.api.SchedulingPolicy;

/**
 * Scheduling as code: the shortest prompt first (what the sjf template does), so short requests do not wait behind
 * long prefills; requests of equal length keep their enqueue order.
 */
public final class ShortestPromptFirst implements SchedulingPolicy {
    @Override
    public int compare(RequestView a, RequestView b) {
        return Integer.compare(a.inputTokens(), b.inputTokens());
    }
}
