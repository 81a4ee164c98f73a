package io.servesim.config;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Link bandwidths written with a unit, as the flag {@code --pd-transfer-bandwidth 10GB/s} writes them
 * (BLIS macro plan, PR 16: inference-sim/inference-sim @ 7d4e8bac,
 * {@code docs/plans/2026-02-11-macro-implementation-plan-v2.md}): a number followed by {@code GB/s},
 * {@code MB/s}, {@code GiB/s} or {@code Gb/s} (bits; NIC speeds are quoted so: 400 Gb/s = 50 GB/s),
 * converted to GB/s (10^9 bytes per second); a number without a unit is GB/s (as a flag passes {@code 50}).
 * The setting's range ({@link ValueType#bandwidth}) bounds the value.
 */
public final class Bandwidths {
    private static final Pattern FORM = Pattern.compile("([0-9]+(?:\\.[0-9]+)?)\\s*(GB/s|MB/s|GiB/s|Gb/s)?");
    /** The valid forms, as errors list them. */
    private static final String UNITS = "a number of GB/s, or one with a unit: GB/s, MB/s, GiB/s or Gb/s"
            + " (e.g. 50GB/s, 400Gb/s)";

    private Bandwidths() {
    }

    /** GB/s of {@code text}; throws {@link ConfigException} at {@code path} when malformed. */
    public static double parseGbPerS(String text, String path) {
        Matcher m = FORM.matcher(text == null ? "" : text.trim());
        if (!m.matches()) {
            throw new ConfigException(path, "must be a bandwidth, " + UNITS + ", got '" + text + "'");
        }
        double v = Double.parseDouble(m.group(1));
        return m.group(2) == null ? v : switch (m.group(2)) {
            case "GB/s" -> v;
            case "MB/s" -> v / 1e3;
            case "GiB/s" -> v * 1.073741824;
            default -> v / 8;
        };
    }
}
