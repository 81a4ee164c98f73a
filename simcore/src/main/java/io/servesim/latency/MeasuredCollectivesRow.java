package io.servesim.latency;

import com.fasterxml.jackson.databind.JsonNode;
import io.servesim.config.ConfigNode;
import io.servesim.config.ValueType;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Binds a GPU row's optional {@code link.measured_collectives} into {@link MeasuredCollectives}:
 * {@code {ranks, bytes: [...], all_gather_us: [...], reduce_scatter_us: [...], all_reduce_us: [...]}}, sizes strictly
 * increasing, each collective's times as many as the sizes and at least one collective. A time shorter than the link
 * can carry its bytes in (nccl-tests' bus bandwidth above the link's rate per direction) is refused with the bound.
 */
final class MeasuredCollectivesRow {
    static final String KEY = "measured_collectives";
    private static final int MAX_RANKS = 1024;
    private static final long MAX_BYTES = 1L << 40;

    private MeasuredCollectivesRow() {
    }

    /**
     * The link's measured collectives: {@link MeasuredCollectives#NONE} when absent, null (problems recorded) when bad.
     *
     * @param linkGBps the link's own rate per direction, GB/s: no sample may move bytes faster; NaN when the link's own
     *                 keys are bad (the rate is unknown, and only the table's own checks apply)
     */
    static MeasuredCollectives read(ConfigNode link, double linkGBps) {
        link.declare(KEY);
        if (!link.has(KEY)) {
            return MeasuredCollectives.NONE;
        }
        ConfigNode table = link.child(KEY);
        if (!table.present()) {
            return null;
        }
        List<String> keys = new ArrayList<>(List.of("ranks", "bytes"));
        for (MeasuredCollectives.Collective c : MeasuredCollectives.Collective.values()) {
            keys.add(c.configKey());
        }
        table.declare(keys.toArray(String[]::new));
        int ranks = (int) table.longValue("ranks", 0, 2, MAX_RANKS);
        if (!table.has("ranks")) {
            table.problem(table.pathOf("ranks"), "required: the GPUs the collectives ran over, 2-" + MAX_RANKS);
        }
        double[] bytes = sizes(table);
        double[][] us = new double[MeasuredCollectives.Collective.values().length][];
        boolean ok = ranks >= 2 && bytes != null && !Double.isNaN(linkGBps);
        boolean any = false;
        for (MeasuredCollectives.Collective c : MeasuredCollectives.Collective.values()) {
            if (table.has(c.configKey())) {
                any = true;
                us[c.ordinal()] = times(table, c, bytes, ranks, linkGBps);
                ok &= us[c.ordinal()] != null;
            }
        }
        if (!any) {
            table.problem(table.path(), "times no collective: give one or more of " + keys.subList(2, keys.size())
                    + ", each a list of microseconds at the sizes in bytes");
            ok = false;
        }
        table.finish();
        return ok ? new MeasuredCollectives(ranks, bytes, us, linkGBps) : null;
    }

    /** {@code bytes}: two or more whole sizes up to 1 TiB, strictly increasing; null (a problem recorded) otherwise. */
    private static double[] sizes(ConfigNode table) {
        JsonNode v = table.rawValue("bytes");
        String what = ": the sizes timed, bytes, strictly increasing (an all-reduce's input, an all-gather's local input,"
                + " a reduce-scatter's local output)";
        if (v == null || !v.isArray() || v.size() < 2) {
            table.problem(table.pathOf("bytes"), (v == null ? "required" : "must be a list of 2 sizes or more, got " + v)
                    + what + "; two at least, so that times above the largest follow a measured slope");
            return null;
        }
        double[] out = new double[v.size()];
        for (int i = 0; i < v.size(); i++) {
            JsonNode b = v.get(i);
            if (!b.isIntegralNumber() || !b.canConvertToLong() || b.asLong() < 1 || b.asLong() > MAX_BYTES
                    || (i > 0 && b.asLong() <= out[i - 1])) {
                table.problem(table.pathOf("bytes") + "[" + i + "]", "must be a whole number of bytes above "
                        + (i > 0 ? String.format(Locale.ROOT, "the size before it (%.0f)", out[i - 1]) : "0")
                        + ", at most " + MAX_BYTES + " (1 TiB), got " + b + what);
                return null;
            }
            out[i] = b.asLong();
        }
        return out;
    }

    /**
     * One collective's times: each positive; as many as the sizes and no faster than the link where those are known;
     * null when bad.
     */
    private static double[] times(ConfigNode table, MeasuredCollectives.Collective c, double[] bytes, int ranks,
                                  double linkGBps) {
        String key = c.configKey();
        JsonNode v = table.rawValue(key);
        if (v == null || !v.isArray()) {
            table.problem(table.pathOf(key), "must be a list of microseconds, one per size in bytes, got " + v);
            return null;
        }
        double[] out = new double[v.size()];
        boolean ok = true;
        for (int i = 0; i < v.size(); i++) {
            JsonNode t = v.get(i);
            if (!t.isNumber() || !(t.asDouble() > 0) || Double.isInfinite(t.asDouble())) {
                table.problem(table.pathOf(key) + "[" + i + "]", "must be a positive number of microseconds, got " + t);
                ok = false;
            }
            out[i] = t.asDouble();
        }
        if (bytes != null && v.size() != bytes.length) {
            table.problem(table.pathOf(key), "must be a list of " + bytes.length + " microseconds, one per size in bytes,"
                    + " got " + v.size() + " values");
            return null;
        }
        if (!ok || bytes == null || ranks < 2 || Double.isNaN(linkGBps)) {
            return ok ? out : null;
        }
        for (int i = 0; i < out.length; i++) {
            double busGBps = c.busBytesPerUs(bytes[i], out[i], ranks) / 1e3;
            if (busGBps > linkGBps) {
                table.problem(table.pathOf(key) + "[" + i + "]", String.format(Locale.ROOT, "%s us for %.0f B over %d GPUs"
                        + " is a bus bandwidth of %.1f GB/s, above the %.1f GB/s the link carries per direction: a"
                        + " collective cannot move its bytes faster than the link", ValueType.plain(out[i]), bytes[i], ranks,
                        busGBps, linkGBps));
                return null;
            }
        }
        return out;
    }
}
