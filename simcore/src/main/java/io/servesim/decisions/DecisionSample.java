package io.servesim.decisions;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;

/**
 * A seeded uniform sample of a run's routing decisions that have alternatives (at least two
 * counterfactual candidates), kept as they stream by (reservoir sampling, Vitter's Algorithm R), for
 * re-simulation ({@code --counterfactual-sample N}). The same stream and seed give the same sample.
 */
public final class DecisionSample implements DecisionSink {
    private final int size;
    private final SplittableRandom random;
    private final List<DecisionRecord> reservoir = new ArrayList<>();
    private long seen;

    public DecisionSample(int size, long seed) {
        this.size = size;
        this.random = new SplittableRandom(seed);
    }

    @Override
    public void accept(DecisionRecord d) {
        if (d.kind() != DecisionKind.ROUTING || d.candidates().size() < 2) {
            return;
        }
        seen++;
        if (reservoir.size() < size) {
            reservoir.add(d);
        } else {
            long j = random.nextLong(seen);
            if (j < size) {
                reservoir.set((int) j, d);
            }
        }
    }

    /**
     * The note for a run whose routing policy {@code router} left nothing to sample (no decision had two or more
     * candidates: a router that scores none, such as round-robin, or a single instance), or null when the sample
     * holds a decision; {@code flag} is the option that asked for the sample.
     */
    public String nothingToReplay(String flag, String router) {
        return seen > 0 ? null : flag + " " + size + ": no routing decision of '" + router + "' had alternatives to replay"
                + " (none scored two or more candidates: a router that scores none, or a single instance), so there is no"
                + " realized regret";
    }

    /** The sample, in decision order. */
    public List<DecisionRecord> sampled() {
        List<DecisionRecord> s = new ArrayList<>(reservoir);
        s.sort(Comparator.comparingLong(DecisionRecord::timeUs).thenComparingLong(DecisionRecord::requestId));
        return s;
    }
}
