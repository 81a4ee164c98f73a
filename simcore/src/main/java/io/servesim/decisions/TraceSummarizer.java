package io.servesim.decisions;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.TreeMap;

/**
 * Folds a stream of decisions into a {@link TraceSummary} as they arrive (BLIS macro plan, PR 18
 * {@code TraceSummary}: inference-sim/inference-sim @ 7d4e8bac,
 * {@code docs/plans/2026-02-11-macro-implementation-plan-v2.md}), so a run can be summarized without
 * keeping its trace: counts are maps, the regret distribution is a growing primitive array, the worst
 * decisions a bounded heap.
 */
public final class TraceSummarizer implements DecisionSink {
    private final int worstN;
    private final Map<String, Long> byPolicy = new TreeMap<>();
    private final Map<String, Long> byOutcome = new TreeMap<>();
    private final Map<Integer, Long> targets = new TreeMap<>();
    private final Map<String, Long> rejections = new TreeMap<>();
    private final Map<String, Long> victims = new TreeMap<>();
    private final List<DecisionRecord> scaleActions = new ArrayList<>();
    private final PriorityQueue<DecisionRecord> worst =
            new PriorityQueue<>(Comparator.comparingDouble(DecisionRecord::scoreRegret).thenComparing(
                    Comparator.comparingLong(DecisionRecord::requestId).reversed()));
    private double[] regrets = new double[64];
    private int regretCount;
    private long decisions;

    /** Keeps the {@code worstN} decisions of highest score regret. */
    public TraceSummarizer(int worstN) {
        this.worstN = worstN;
    }

    @Override
    public void accept(DecisionRecord d) {
        decisions++;
        String kind = d.kind().name().toLowerCase(java.util.Locale.ROOT);
        byPolicy.merge(kind + "/" + d.policy(), 1L, Long::sum);
        byOutcome.merge(kind + "/" + d.outcome(), 1L, Long::sum);
        switch (d.kind()) {
            case ROUTING -> {
                targets.merge(d.instance(), 1L, Long::sum);
                if (!Double.isNaN(d.scoreRegret())) {
                    addRegret(d);
                }
            }
            case ADMISSION -> {
                if ("reject".equals(d.outcome())) {
                    rejections.merge(d.reason().isEmpty() ? "(no reason)" : d.reason(), 1L, Long::sum);
                }
            }
            case PREEMPTION -> victims.merge(TraceSummary.number(d.value()), 1L, Long::sum);
            case SCALE -> scaleActions.add(d);
            case PRIORITY -> { }
        }
    }

    private void addRegret(DecisionRecord d) {
        if (regretCount == regrets.length) {
            regrets = Arrays.copyOf(regrets, regretCount * 2);
        }
        regrets[regretCount++] = d.scoreRegret();
        if (worstN > 0) {
            worst.add(d);
            if (worst.size() > worstN) {
                worst.poll();
            }
        }
    }

    /** The summary of everything accepted so far. */
    public TraceSummary summary() {
        double[] sorted = Arrays.copyOf(regrets, regretCount);
        Arrays.sort(sorted);
        double mean = regretCount == 0 ? Double.NaN : Arrays.stream(sorted).sum() / regretCount;
        // nearest-rank p99, as the run's latency percentiles
        double p99 = regretCount == 0 ? Double.NaN : sorted[Math.max(0, (int) Math.ceil(0.99 * regretCount) - 1)];
        List<DecisionRecord> worstFirst = new ArrayList<>(worst);
        worstFirst.sort(worst.comparator().reversed());
        return new TraceSummary(decisions, byPolicy, byOutcome, targets, mean, p99, regretCount, worstFirst,
                rejections, victims, scaleActions, List.of());
    }
}
