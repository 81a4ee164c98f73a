package io.servesim.sweep;

import java.io.Serializable;
import java.util.List;

/**
 * One point of a sweep's grid: a fully resolved run config and its seed, plus the axis labels that
 * produced it. The config travels as canonical JSON text (sorted keys), so a cell is a small
 * immutable value that any Beam runner can ship to a worker.
 *
 * @param index      position in the grid (axes in declaration order, first axis outermost, seeds innermost)
 * @param cellId     stable id: a hash of the resolved config and seed (see {@link Grid#cellId})
 * @param axes       label of every axis, in declaration order
 * @param seed       the run's seed (also set in the config)
 * @param configJson the resolved run config as canonical JSON
 * @param baseDir    directory relative paths in the config resolve against
 */
public record Cell(int index, String cellId, List<AxisLabel> axes, long seed, String configJson, String baseDir)
        implements Serializable {
    private static final long serialVersionUID = 1L;

    public Cell {
        axes = List.copyOf(axes);
    }

    /** An axis and the label of the value this cell takes on it. */
    public record AxisLabel(String axis, String label) implements Serializable {
        private static final long serialVersionUID = 1L;

        @Override
        public String toString() {
            return axis + "=" + label;
        }
    }

    /** {@code routing=kv-router, rate=20} */
    public String describeAxes() {
        return String.join(", ", axes.stream().map(AxisLabel::toString).toList());
    }
}
