package io.servesim.report;

import io.servesim.exit.UsageException;
import java.util.List;
import java.util.Optional;

/**
 * Which sweep axis plays which part in the charts, from the user's flags or detected:
 * <ul>
 *   <li>the load axis (x of the latency curves): {@code --load}, else the first axis that sets one of
 *       {@link #LOAD_PATH_SUFFIXES} ({@code workload.aggregate_rate}, {@code workload.trace.arrival_speedup_ratio},
 *       a client's {@code rate}), else the first axis whose labels are all numbers, else none; the page says
 *       which and why ({@link #loadReason});</li>
 *   <li>the heatmap axes: {@code --x} and {@code --y}, default the first two axes (one axis: a single row);</li>
 *   <li>the policy axis (series of the CDFs and instance bars): the first non-load axis that sets a
 *       {@code policies.} path, else the first non-load axis, else none (one series).</li>
 * </ul>
 * An unknown axis name is a {@link UsageException} naming the flag and listing the valid axes.
 *
 * @param load       the load axis, or null
 * @param loadReason why it was chosen, for the page
 * @param x          the heatmaps' x axis
 * @param y          the heatmaps' y axis, or null (a one-axis sweep)
 * @param policy     the policy axis, or null
 */
record ReportAxes(SweepAxis load, String loadReason, SweepAxis x, SweepAxis y, SweepAxis policy) {
    /** Config paths (by their last segments) that set a load level. */
    static final List<String> LOAD_PATH_SUFFIXES = List.of("aggregate_rate", "arrival_speedup_ratio", ".rate");

    /** Resolves the flags ({@code null}: not given) against {@code sweep}'s axes. */
    static ReportAxes resolve(SweepOutput sweep, String loadFlag, String xFlag, String yFlag) {
        List<SweepAxis> axes = sweep.axes();
        SweepAxis load;
        String reason;
        if (loadFlag != null) {
            load = named(sweep, "--load", loadFlag);
            reason = "chosen with --load";
        } else {
            Optional<SweepAxis> byPath = axes.stream().filter(a -> a.paths().stream().anyMatch(ReportAxes::isLoadPath)).findFirst();
            Optional<SweepAxis> byNumber = axes.stream().filter(SweepAxis::numeric).findFirst();
            load = byPath.or(() -> byNumber).orElse(null);
            reason = byPath.isPresent() ? "detected: it sets " + String.join(", ", byPath.get().paths())
                    : byNumber.isPresent() ? "guessed: the first axis with numeric labels (no axis sets a rate; --load chooses)"
                    : "none: no axis sets a rate or has numeric labels (--load chooses one)";
        }
        SweepAxis x = xFlag != null ? named(sweep, "--x", xFlag) : axes.isEmpty() ? null : axes.get(0);
        SweepAxis y = yFlag != null ? named(sweep, "--y", yFlag)
                : axes.stream().filter(a -> a != x).findFirst().orElse(null);
        if (x != null && x == y) {
            throw new UsageException("--x and --y: both name axis '" + x.name() + "'; pick two different axes of "
                    + String.join(", ", sweep.axisNames()));
        }
        SweepAxis policy = axes.stream().filter(a -> a != load && a.paths().stream().anyMatch(p -> p.startsWith("policies.")))
                .findFirst().or(() -> axes.stream().filter(a -> a != load).findFirst()).orElse(null);
        return new ReportAxes(load, reason, x, y, policy);
    }

    /** The axes other than the load axis, in order. */
    List<SweepAxis> others(SweepOutput sweep) {
        return sweep.axes().stream().filter(a -> a != load).toList();
    }

    private static boolean isLoadPath(String path) {
        return LOAD_PATH_SUFFIXES.stream().anyMatch(s -> path.endsWith(s) || path.equals(s.replace(".", "")));
    }

    private static SweepAxis named(SweepOutput sweep, String flag, String name) {
        if (!sweep.axisNames().contains(name)) {
            throw new UsageException(flag + " " + name + ": not an axis of sweep " + sweep.name() + "; valid axes: "
                    + (sweep.axes().isEmpty() ? "(none: the sweep has no axes)" : String.join(", ", sweep.axisNames())));
        }
        return sweep.axis(name);
    }
}
