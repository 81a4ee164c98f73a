import io.servesim.policy.api.PriorityPolicy;
import io.servesim.policy.api.RequestView;

/**
 * Priority as code: realtime before interactive before batch, and within a class the older request first (one point
 * per second waited). The age term is the same shift for every request, so rankKey's default, the score at time 0,
 * orders the wait queue as the score does at any time.
 */
public final class SloClassThenAge implements PriorityPolicy {
    @Override
    public double score(RequestView request, long nowUs) {
        double classScore = switch (request.sloClass()) {
            case "realtime" -> 100;
            case "interactive" -> 10;
            default -> 0;
        };
        return classScore + (nowUs - request.arrivalUs()) / 1e6;
    }
}
