package io.servesim.latency;

import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;

/**
 * One MoE block's measured time (gate and grouped experts of one decoder layer) by the tokens it runs and the distinct
 * experts they activate: casys-kaist/LLMServingSim's {@code tp1/moe.csv} ({@code tokens,activated_experts,time_us};
 * {@code profiler/core/categories.py ExpertCategory}, which measures every power of two of both axes with
 * {@code top_k <= activated <= min(experts, tokens x top_k)}). Read as its simulator reads it
 * ({@code serving/core/trace_generator.py _build_moe_table, _lookup_moe} @ 5daddb2): one curve over tokens per
 * activated-expert count ({@link PiecewiseLinear}: clamped below the first sample, extrapolated above the last), and
 * between the two counts that bracket the query a linear blend (below the first count: the first row; above the last:
 * extrapolated from the last two rows).
 */
final class MoeTable {
    private final double[] activated;
    private final PiecewiseLinear[] byTokens;

    private MoeTable(double[] activated, PiecewiseLinear[] byTokens) {
        this.activated = activated;
        this.byTokens = byTokens;
    }

    /** Reads {@code moe.csv}. */
    static MoeTable read(ProfileCsv csv) {
        int cTokens = csv.column("tokens");
        int cActivated = csv.column("activated_experts");
        int cTime = csv.column("time_us");
        Map<Integer, TreeMap<Integer, Double>> rows = new TreeMap<>();
        for (int r = 0; r < csv.size(); r++) {
            rows.computeIfAbsent(csv.integer(r, cActivated, 1), k -> new TreeMap<>())
                    .put(csv.integer(r, cTokens, 1), csv.number(r, cTime, 0)); // duplicates: the last, as LLMServingSim
        }
        double[] activated = new double[rows.size()];
        PiecewiseLinear[] curves = new PiecewiseLinear[rows.size()];
        int i = 0;
        for (Map.Entry<Integer, TreeMap<Integer, Double>> e : rows.entrySet()) {
            activated[i] = e.getKey();
            curves[i++] = new PiecewiseLinear(e.getValue().keySet().stream().mapToDouble(Integer::doubleValue).toArray(),
                    e.getValue().values().stream().mapToDouble(Double::doubleValue).toArray());
        }
        return new MoeTable(activated, curves);
    }

    /** The block's time, microseconds, for {@code tokens} tokens activating {@code activatedExperts} distinct experts. */
    double timeUs(double tokens, double activatedExperts) {
        int n = activated.length;
        if (n == 1 || activatedExperts <= activated[0]) {
            return byTokens[0].at(tokens);
        }
        int hi = Arrays.binarySearch(activated, activatedExperts);
        if (hi >= 0) {
            return byTokens[hi].at(tokens);
        }
        hi = Math.min(-hi - 1, n - 1);
        int lo = hi - 1;
        double yLo = byTokens[lo].at(tokens);
        double yHi = byTokens[hi].at(tokens);
        return yLo + (activatedExperts - activated[lo]) * (yHi - yLo) / (activated[hi] - activated[lo]);
    }
}
