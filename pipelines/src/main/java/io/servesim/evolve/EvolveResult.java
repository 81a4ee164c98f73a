package io.servesim.evolve;

import java.util.List;
import java.util.Map;

/**
 * What a search found.
 *
 * @param all     every candidate of every generation, in order
 * @param best    the candidate of highest training fitness (the earliest of equals)
 * @param train   the training split's score of the best candidate ({@link EvolveRounds#BEST}) and of each baseline
 * @param heldOut the held-out split's score of the same
 */
record EvolveResult(List<Evaluated> all, Evaluated best, Map<String, EvolveRounds.Score> train,
                    Map<String, EvolveRounds.Score> heldOut) {

    /**
     * Each policy of the comparison (the best candidate, each baseline) that did not finish every run of a split, in
     * words: "kv-router on the training split: 2 of 4 runs failed". A failed run scores 0, so such a policy's fitness
     * is not comparable: the summary leaves it out of its verdict and the command fails.
     */
    List<String> unfinished() {
        List<String> out = new java.util.ArrayList<>();
        unfinished("training", train, out);
        unfinished("held-out", heldOut, out);
        return out;
    }

    private static void unfinished(String split, Map<String, EvolveRounds.Score> scores, List<String> out) {
        scores.forEach((label, s) -> {
            if (s == null) {
                out.add(label + " on the " + split + " split: not run");
            } else if (s.failed() > 0) {
                out.add(label + " on the " + split + " split: " + s.failed() + " of " + s.runs() + " runs failed");
            }
        });
    }
}
