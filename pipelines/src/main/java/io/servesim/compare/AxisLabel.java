package io.servesim.compare;

import java.math.BigDecimal;

/**
 * Normalises an axis label so that the simulated and the measured side match on its value, not its
 * spelling: labels are trimmed, and a label that parses as a decimal number is written in its
 * shortest plain form ({@code 20}, {@code 20.0}, {@code 2e1} and {@code 020} all become {@code 20};
 * {@code 0.50} becomes {@code 0.5}). Any other label is compared as the trimmed string,
 * case-sensitively.
 */
final class AxisLabel {
    private AxisLabel() {
    }

    static String normalise(String label) {
        String trimmed = label.trim();
        try {
            BigDecimal value = new BigDecimal(trimmed);
            return value.signum() == 0 ? "0" : value.stripTrailingZeros().toPlainString();
        } catch (NumberFormatException e) {
            return trimmed;
        }
    }
}
