package io.servesim.decisions;

/**
 * What a traced run records: the level and, for routing decisions, how many top-scoring candidate
 * instances are kept ({@code --counterfactual-k}; 0 = none, no regret).
 *
 * @param level          what is recorded; {@link TraceLevel#NONE} means the run is not traced
 * @param counterfactualK candidates kept per routing decision, &gt;= 0
 */
public record TraceOptions(TraceLevel level, int counterfactualK) implements java.io.Serializable {
    public static final TraceOptions OFF = new TraceOptions(TraceLevel.NONE, 0);

    public TraceOptions {
        if (counterfactualK < 0) {
            throw new IllegalArgumentException("counterfactual K must be >= 0, got " + counterfactualK);
        }
        if (level == TraceLevel.NONE && counterfactualK > 0) {
            throw new IllegalArgumentException("counterfactuals need a trace level other than none");
        }
    }

    public boolean on() {
        return level != TraceLevel.NONE;
    }
}
