package io.servesim.config;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Link bandwidths written with a unit, as the flag {@code --pd-transfer-bandwidth 10GB/s} writes them
 * (BLIS macro plan, PR 16: inference-sim/inference-sim @ 7d4e8bac,
 * {@code docs/plans/2026-02-11-macro-implementation-plan-v2.md}): a number > 0 followed by {@code GB/s},
 * {@code MB/s}, {@code GiB/s} or {@code Gb/s} (bits; NIC speeds are quoted so: 400 Gb/s = 50 GB/s),
 * converted to GB/s (10^9 bytes per second).
 */
public final class Bandwidths {
    private static final Pattern FORM = Pattern.compile("([0-9]+(?:\\.[0-9]+)?)\\s*(GB/s|MB/s|GiB/s|Gb/s)");
    /** The valid forms, as errors list them. */
    public static final String UNITS = "GB/s, MB/s, GiB/s or Gb/s (e.g. 50GB/s, 400Gb/s)";

    private Bandwidths() {
    }

    /** GB/s of {@code text}; throws {@link ConfigException} at {@code path} when malformed or not > 0. */
    public static double parseGbPerS(String text, String path) {
        Matcher m = FORM.matcher(text == null ? "" : text.trim());
        if (!m.matches()) {
            throw new ConfigException(path, "must be a bandwidth with a unit, " + UNITS + ", got '" + text + "'");
        }
        double v = Double.parseDouble(m.group(1));
        double gb = switch (m.group(2)) {
            case "GB/s" -> v;
            case "MB/s" -> v / 1e3;
            case "GiB/s" -> v * 1.073741824;
            default -> v / 8;
        };
        if (!(gb > 0)) {
            throw new ConfigException(path, "must be > 0, got '" + text + "'");
        }
        return gb;
    }

    /** A bandwidth under {@code key} of {@code node} ({@code dflt} GB/s when absent); problems are recorded there. */
    public static double value(ConfigNode node, String key, double dflt) {
        if (!node.has(key)) {
            node.rawValue(key);
            return dflt;
        }
        var v = node.rawValue(key);
        try {
            return parseGbPerS(v.isTextual() ? v.asText() : v.toString(), node.pathOf(key));
        } catch (ConfigException e) {
            e.problems().forEach(p -> node.problem(p.path(), p.message()));
            return dflt;
        }
    }
}
