package io.servesim.sweep;

import io.servesim.config.ConfigException;
import java.util.List;

/**
 * A grid cell whose config does not bind or validate, with every problem at its config path.
 *
 * @param axes     the cell's axis labels
 * @param seed     the cell's seed
 * @param problems what is wrong, each naming the config path at fault
 */
public record InvalidCell(List<Cell.AxisLabel> axes, long seed, List<ConfigException.Problem> problems) {
    public InvalidCell {
        axes = List.copyOf(axes);
        problems = List.copyOf(problems);
    }
}
