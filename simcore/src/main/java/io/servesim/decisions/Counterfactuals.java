package io.servesim.decisions;

import java.util.Arrays;

/**
 * Counterfactual views of a scored decision (BLIS macro plan, PR 18: inference-sim/inference-sim
 * @ 7d4e8bac, {@code docs/plans/2026-02-11-macro-implementation-plan-v2.md}): the top-K instances by
 * score and the score regret, "best-alternative - actual". For a policy that picks the highest score
 * the regret is &lt;= 0 (minus the winning margin); it is &gt; 0 when the policy chose against its own
 * scores (e.g. prefix affinity overriding load).
 */
public final class Counterfactuals {
    private Counterfactuals() {
    }

    /**
     * Positions of the {@code k} highest of the first {@code n} scores, best first; ties go to the
     * lower position (the lower instance id: routing sees instances in ascending id order).
     */
    public static int[] topK(double[] scores, int n, int k) {
        Integer[] ids = new Integer[n];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = i;
        }
        Arrays.sort(ids, (a, b) -> scores[a] != scores[b] ? Double.compare(scores[b], scores[a]) : Integer.compare(a, b));
        int kept = Math.min(k, n);
        int[] top = new int[kept];
        for (int i = 0; i < kept; i++) {
            top[i] = ids[i];
        }
        return top;
    }

    /**
     * Best of the first {@code n} scores other than position {@code chosen}'s, minus {@code chosen}'s;
     * NaN with one instance.
     */
    public static double scoreRegret(double[] scores, int n, int chosen) {
        double best = Double.NEGATIVE_INFINITY;
        for (int i = 0; i < n; i++) {
            if (i != chosen) {
                best = Math.max(best, scores[i]);
            }
        }
        return best == Double.NEGATIVE_INFINITY ? Double.NaN : best - scores[chosen];
    }
}
