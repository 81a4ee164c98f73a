package io.servesim.sweep;

import io.servesim.config.ConfigException;
import io.servesim.exit.UsageException;
import io.servesim.run.RunPlan;
import io.servesim.workload.TraceFormatException;
import io.servesim.workload.TraceSpec;
import io.servesim.workload.trace.TraceHead;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A sweep whose every cell has been bound and validated ({@link RunPlan#prepare}; each distinct trace
 * file's header and first lines read by {@link TraceHead}) before anything runs. If any cell is invalid, {@link #prepare} throws {@link InvalidCellsException} listing all of
 * them at once, each with its axis labels and the config path at fault.
 *
 * @param spec     the sweep
 * @param cells    its cells in grid order
 * @param warnings the cells' non-fatal notes ({@link RunPlan#warnings()}: a renamed fitness key, a workload note, an
 *                 autoscaled fleet without a price), each once, with how many cells have it
 */
public record SweepPlan(SweepSpec spec, List<Cell> cells, Map<String, Integer> warnings) {
    public SweepPlan {
        cells = List.copyOf(cells);
        warnings = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(warnings));
    }

    /** Each warning once, with how many cells have it when not every cell does. */
    public List<String> warningLines() {
        return warnings.entrySet().stream().map(e -> e.getValue() == cells.size() ? e.getKey()
                : e.getKey() + " (" + e.getValue() + " of " + cells.size() + " cells)").toList();
    }

    public static SweepPlan prepare(SweepSpec spec) {
        Grid.Expansion grid = Grid.expand(spec);
        List<InvalidCell> invalid = new ArrayList<>(grid.invalid());
        Map<String, Cell> byId = new HashMap<>();
        Map<List<Object>, List<ConfigException.Problem>> traceProblems = new HashMap<>();
        Map<String, Integer> warnings = new LinkedHashMap<>();
        Map<String, List<Long>> seedlessSeeds = new LinkedHashMap<>(); // axes -> seeds of cells the seed changes nothing in
        for (Cell cell : grid.cells()) {
            try {
                RunPlan plan = CellRunner.plan(cell);
                plan.warnings().forEach(w -> warnings.merge(w, 1, Integer::sum));
                if (!plan.seedMatters()) {
                    seedlessSeeds.computeIfAbsent(cell.describeAxes(), k -> new ArrayList<>()).add(cell.seed());
                }
                if (plan.config().workload() instanceof TraceSpec t) {
                    List<ConfigException.Problem> bad = traceProblems.computeIfAbsent(
                            List.of(t.format(), t.path(), t.mode(), t.skipBadLines()), k -> checkTraceHead(t));
                    if (!bad.isEmpty()) {
                        throw new ConfigException(bad);
                    }
                }
            } catch (ConfigException e) {
                invalid.add(new InvalidCell(cell.axes(), cell.seed(), naming(spec.axes(), e.problems())));
                continue;
            }
            Cell twin = byId.putIfAbsent(cell.cellId(), cell);
            if (twin != null) {
                invalid.add(new InvalidCell(cell.axes(), cell.seed(), List.of(new ConfigException.Problem("axes",
                        "resolves to the same config and seed as " + twin.describeAxes() + " (cell_id " + cell.cellId() + ")"))));
            }
        }
        if (!invalid.isEmpty()) {
            throw new InvalidCellsException(grid.cells().size() + grid.invalid().size(), invalid);
        }
        int repeated = seedlessSeeds.values().stream().filter(s -> s.size() > 1).mapToInt(List::size).sum();
        if (repeated > 0) {
            warnings.put("a trace replays its own arrivals and lengths whatever the seed, and nothing else in these cells"
                    + " draws from it (no speculative decoding): their seeds " + spec.seeds() + " repeat the same run", repeated);
        }
        return new SweepPlan(spec, grid.cells(), warnings);
    }

    /**
     * {@code problems} with each one at or above a path an axis sets marked with that axis
     * ({@code policies.routng: unknown key; ... (axis routing sets policies.routng.name)}), so a
     * problem an axis causes names the axis: the config path alone does not say where in the sweep
     * file it came from.
     */
    static List<ConfigException.Problem> naming(List<Axis> axes, List<ConfigException.Problem> problems) {
        List<ConfigException.Problem> named = new ArrayList<>(problems.size());
        for (ConfigException.Problem p : problems) {
            List<String> setters = new ArrayList<>();
            for (Axis axis : axes) {
                axis.values().stream().flatMap(v -> v.assignments().keySet().stream())
                        .filter(path -> under(path, p.path())).distinct().findFirst()
                        .ifPresent(path -> setters.add("axis " + axis.name() + " sets " + path));
            }
            named.add(setters.isEmpty() ? p : new ConfigException.Problem(p.path(),
                    p.message() + " (" + String.join("; ", setters) + ")"));
        }
        return named;
    }

    /** Whether config {@code path} is {@code at} or below it. */
    private static boolean under(String path, String at) {
        return at != null && !at.isEmpty() && (path.equals(at) || path.startsWith(at + ".") || path.startsWith(at + "["));
    }

    /** The problem a trace file's header and first lines have ({@link TraceHead}), or none; read once per distinct trace. */
    private static List<ConfigException.Problem> checkTraceHead(TraceSpec trace) {
        try {
            TraceHead.check(trace, TraceHead.DEFAULT_LINES);
            return List.of();
        } catch (TraceFormatException | UncheckedIOException e) {
            return List.of(new ConfigException.Problem("workload.trace.path", e.getMessage()));
        }
    }

    /**
     * Some cells are invalid; the message lists each once per axis combination (seeds merged). A problem every cell of
     * the sweep has (the base config's, or an axis path no value can fix) is listed once, under "every cell".
     */
    public static final class InvalidCellsException extends UsageException {
        private static final long serialVersionUID = 1L;

        InvalidCellsException(int total, List<InvalidCell> invalid) {
            super(render(total, invalid));
        }

        private static String render(int total, List<InvalidCell> invalid) {
            Set<ConfigException.Problem> everyCell = new LinkedHashSet<>();
            if (invalid.size() == total && total > 1) {
                everyCell.addAll(invalid.get(0).problems());
                invalid.forEach(c -> everyCell.retainAll(c.problems()));
            }
            Map<String, List<Long>> seedsByCell = new LinkedHashMap<>();
            for (InvalidCell c : invalid) {
                List<ConfigException.Problem> own = c.problems().stream().filter(p -> !everyCell.contains(p)).toList();
                if (own.isEmpty()) {
                    continue;
                }
                StringBuilder key = new StringBuilder(String.join(", ", c.axes().stream().map(Cell.AxisLabel::toString).toList()));
                own.forEach(p -> key.append("\n      ").append(p));
                seedsByCell.computeIfAbsent(key.toString(), k -> new ArrayList<>()).add(c.seed());
            }
            StringBuilder sb = new StringBuilder(invalid.size() + " of " + total + " cells are invalid:");
            if (!everyCell.isEmpty()) {
                sb.append("\n  every cell:");
                everyCell.forEach(p -> sb.append("\n      ").append(p));
            }
            seedsByCell.forEach((key, seeds) -> {
                int nl = key.indexOf('\n');
                String axes = nl < 0 ? key : key.substring(0, nl);
                sb.append("\n  ").append(axes).append(" (seed").append(seeds.size() > 1 ? "s " : " ")
                        .append(String.join(", ", seeds.stream().map(String::valueOf).toList())).append(')')
                        .append(nl < 0 ? "" : key.substring(nl));
            });
            return sb.toString();
        }
    }
}
