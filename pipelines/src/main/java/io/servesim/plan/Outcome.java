package io.servesim.plan;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What one probe's run gave: the values of the metrics the plan reads from its {@code cells/} row, and whether every
 * request it injected completed (none dropped as unservable, rejected or left unfinished). A run that threw (an
 * {@code errors/} row) has its {@link #failure()} and no values.
 *
 * @param values    metric column to value (null: the run has none, e.g. no request qualified)
 * @param injected  requests that arrived
 * @param completed requests that finished
 * @param failure   why the run failed, or null
 */
public record Outcome(Map<String, Double> values, long injected, long completed, String failure) {
    /** The pseudo-objective every candidate must meet besides the SLOs, as named in messages. */
    public static final String SERVED = "every request completed";

    public Outcome {
        values = Collections.unmodifiableMap(new LinkedHashMap<>(values));
    }

    /** A run that threw. */
    public static Outcome failed(String why) {
        return new Outcome(Map.of(), 0, 0, why);
    }

    /**
     * The outcome of one probe run with several seeds: its worst run, so a candidate meets the objectives at a rate
     * only if it does with every seed. Worst is, in order: a run that failed, a run that misses an objective, the least
     * {@link #slack}; of equals, the first in {@code bySeed} (seed order).
     */
    public static Outcome worst(List<Outcome> bySeed, List<Slo> slos) {
        Outcome worst = null;
        for (Outcome o : bySeed) {
            if (worst == null || o.rank(slos) < worst.rank(slos)
                    || (o.rank(slos) == worst.rank(slos) && o.slack(slos) < worst.slack(slos))) {
                worst = o;
            }
        }
        return worst;
    }

    private int rank(List<Slo> slos) {
        return failure != null ? 0 : feasible(slos) ? 2 : 1;
    }

    /** Whether every injected request completed. */
    public boolean served() {
        return failure == null && injected > 0 && completed == injected;
    }

    /** The value of {@code metric}, or null. */
    public Double value(String metric) {
        return values.get(metric);
    }

    /** Whether the run served every request and met every SLO. */
    public boolean feasible(List<Slo> slos) {
        return served() && slos.stream().allMatch(s -> s.met(value(s.metric())));
    }

    /**
     * How comfortably the run meets its objectives: the least slack of its SLOs ({@link Slo#slack}), times the share
     * of requests completed; 1 or more when feasible, 0 for a failed run.
     */
    public double slack(List<Slo> slos) {
        if (failure != null || injected == 0) {
            return 0;
        }
        double least = Double.POSITIVE_INFINITY;
        for (Slo s : slos) {
            least = Math.min(least, s.slack(value(s.metric())));
        }
        double share = (double) completed / injected;
        return (slos.isEmpty() ? 1 : least) * share;
    }

    /** The objectives the run missed, in words ({@code ttft_p99_ms <= 500}, {@link #SERVED}); empty when feasible. */
    public List<String> missed(List<Slo> slos) {
        List<String> out = new ArrayList<>();
        if (failure != null) {
            out.add("the run failed: " + failure);
            return out;
        }
        if (!served()) {
            out.add(SERVED);
        }
        slos.stream().filter(s -> !s.met(value(s.metric()))).forEach(s -> out.add(s.toString()));
        return out;
    }
}
