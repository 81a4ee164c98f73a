package io.servesim.report;

import java.util.List;
import java.util.Set;

/**
 * One axis of a finished sweep as {@code _SWEEP.yaml} records it.
 *
 * @param name   the axis name, which is also its string column in every dataset
 * @param labels its value labels, in the sweep file's order
 * @param paths  the config paths its values set (one for a path axis, several for named alternatives)
 */
record SweepAxis(String name, List<String> labels, Set<String> paths) {
    /** Whether every label reads as a number (then charts order it numerically, as the sweep file does). */
    boolean numeric() {
        return labels.stream().allMatch(SweepAxis::isNumber);
    }

    private static boolean isNumber(String label) {
        try {
            Double.parseDouble(label);
            return true;
        } catch (NumberFormatException e) {
            return false;
        }
    }
}
