package io.servesim.sweep;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import java.util.List;

/**
 * A bound sweep file: a base run config varied along axes, crossed (or zipped) and replicated over
 * seeds. Immutable once bound by {@link SweepFile}; {@link Grid} expands it into cells.
 *
 * @param name    sweep name (names the default output directory {@code out/<name>/})
 * @param base    the base run config tree (never mutated; cells copy it)
 * @param baseDir directory that relative paths in the base config resolve against
 * @param axes    axes in declaration order
 * @param zip     groups of axis names that vary together (each axis in at most one group)
 * @param seeds   seeds every axis combination runs with
 * @param outputs optional datasets
 */
public record SweepSpec(String name, ObjectNode base, Path baseDir, List<Axis> axes, List<List<String>> zip,
                        List<Long> seeds, SweepOutputs outputs) {
    public SweepSpec {
        axes = List.copyOf(axes);
        zip = zip.stream().map(List::copyOf).toList();
        seeds = List.copyOf(seeds);
    }

    /** Axis names in declaration order (the axis columns of every dataset). */
    public List<String> axisNames() {
        return axes.stream().map(Axis::name).toList();
    }
}
