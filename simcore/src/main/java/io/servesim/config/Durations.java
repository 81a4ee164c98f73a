package io.servesim.config;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Durations written with a unit, as Go's {@code time.ParseDuration} and the flags BLIS planned
 * ({@code --provisioning-delay 30s}; BLIS macro plan, PR 12: inference-sim/inference-sim @ 7d4e8bac,
 * {@code docs/plans/2026-02-11-macro-implementation-plan-v2.md}) write them: a non-negative number
 * followed by {@code us}, {@code ms}, {@code s}, {@code m} or {@code h} ({@code 30s}, {@code 500ms},
 * {@code 250us}, {@code 1.5m}), converted to whole microseconds (rounded), at most {@link #MAX_US}.
 */
public final class Durations {
    /**
     * The longest duration accepted, 10^15 us (10^9 s, ~31.7 years): simulated time is a {@code long} of
     * microseconds, and a duration added to the clock (a transfer, a check interval, a start-up step) must not
     * overflow it: beyond ~9.2 x 10^18 us the event lands in the past and the run fails its clock check, or
     * replica-seconds and cost turn negative.
     */
    public static final long MAX_US = 1_000_000_000_000_000L;
    private static final Pattern FORM = Pattern.compile("([0-9]+(?:\\.[0-9]+)?)(us|ms|s|m|h)");

    private Durations() {
    }

    /** Microseconds of {@code text}; throws {@link ConfigException} at {@code path} when malformed. */
    public static long parseUs(String text, String path) {
        Matcher m = FORM.matcher(text == null ? "" : text.trim());
        if (!m.matches() && text != null && FORM.matcher(text.trim().replaceFirst("^-", "")).matches()) {
            throw new ConfigException(path, "must be >= 0, got '" + text + "'");
        }
        if (!m.matches()) {
            throw new ConfigException(path, "must be a duration with a unit (e.g. 30s, 500ms, 250us, 2m, 1h), got '" + text + "'");
        }
        double v = Double.parseDouble(m.group(1));
        double unitUs = switch (m.group(2)) {
            case "us" -> 1;
            case "ms" -> 1e3;
            case "s" -> 1e6;
            case "m" -> 60e6;
            default -> 3600e6;
        };
        double us = v * unitUs;
        if (!(us <= MAX_US)) {
            throw new ConfigException(path, "must be at most 1000000000s (" + MAX_US + " us, ~31.7 years), got '" + text + "'");
        }
        return Math.round(us);
    }

    /** {@code us} in the largest unit that writes it exactly ({@code 30s}, {@code 1500ms}, {@code 250us}, {@code 2h}). */
    public static String render(long us) {
        if (us != 0 && us % 3_600_000_000L == 0) {
            return us / 3_600_000_000L + "h";
        }
        if (us != 0 && us % 60_000_000L == 0) {
            return us / 60_000_000L + "m";
        }
        if (us != 0 && us % 1_000_000L == 0) {
            return us / 1_000_000L + "s";
        }
        if (us != 0 && us % 1_000L == 0) {
            return us / 1_000L + "ms";
        }
        return us + "us";
    }
}
