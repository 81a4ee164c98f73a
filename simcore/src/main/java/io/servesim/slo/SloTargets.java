package io.servesim.slo;

import io.servesim.config.ConfigNode;
import io.servesim.config.Setting;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Per-SLO-class latency targets (ms; NaN = no target for that metric; {@link SloSettings}). A completed request meets
 * its SLO when every target its class defines is met; classes without targets are always met. Defaults are the
 * built-in classes ({@link SloSettings#BUILT_IN}): realtime (TTFT 200 ms, TPOT 50 ms), interactive (TTFT 1 s, TPOT
 * 100 ms), standard (TTFT 2 s, TPOT 200 ms), batch (E2E 10 min).
 */
public record SloTargets(Map<String, Target> classes) {
    /**
     * How much each built-in SLO class matters, most important first (slo-based priority's default
     * class scores; priority-inversion counting ranks requests by it).
     */
    public static final Map<String, Double> DEFAULT_CLASS_IMPORTANCE =
            Map.of("realtime", 10.0, "interactive", 5.0, "standard", 3.0, "batch", 1.0, "background", 0.0);

    /** Targets of one class, in milliseconds; NaN means none. */
    public record Target(double ttftMs, double tpotMs, double e2eMs) {
        /**
         * Whether a request with these latencies (ms) meets every target; a NaN latency is one the
         * request does not have (TPOT of a one-token output, as vLLM's benchmark defines TPOT) and
         * is not judged.
         */
        public boolean met(double ttft, double tpot, double e2e) {
            return ok(ttftMs, ttft) && ok(tpotMs, tpot) && ok(e2eMs, e2e);
        }

        private static boolean ok(double target, double value) {
            return Double.isNaN(target) || Double.isNaN(value) || value <= target;
        }
    }

    private static final double NONE = Double.NaN;

    public static final SloTargets DEFAULT = new SloTargets(SloSettings.BUILT_IN);

    public SloTargets {
        classes = Map.copyOf(new TreeMap<>(classes));
    }

    /** The class's targets, or no targets. */
    public Target of(String sloClass) {
        Target t = classes.get(sloClass);
        return t != null ? t : new Target(NONE, NONE, NONE);
    }

    /** TTFT target in us of a class, or {@code fallbackUs} when it has none (deadline-aware priority). */
    public long ttftTargetUs(String sloClass, long fallbackUs) {
        double ms = of(sloClass).ttftMs();
        return Double.isNaN(ms) ? fallbackUs : Math.round(ms * 1000);
    }

    /** {@code slo: {class: {ttft_ms, tpot_ms, e2e_ms}}}; given classes replace the defaults' entry. */
    public static SloTargets bind(ConfigNode s) {
        Map<String, Target> classes = new LinkedHashMap<>(DEFAULT.classes());
        if (!s.present()) {
            return DEFAULT;
        }
        List<String> keys = new ArrayList<>();
        s.raw().fieldNames().forEachRemaining(keys::add);
        for (String cls : keys) {
            ConfigNode t = s.child(cls);
            double ttft = ms(t, SloSettings.TTFT_MS);
            double tpot = ms(t, SloSettings.TPOT_MS);
            double e2e = ms(t, SloSettings.E2E_MS);
            t.finish();
            if (!t.has("ttft_ms") && !t.has("tpot_ms") && !t.has("e2e_ms")) {
                s.problem(s.pathOf(cls), "defines no target; give at least one of ttft_ms, tpot_ms, e2e_ms");
            }
            classes.put(cls, new Target(ttft, tpot, e2e));
        }
        s.finish();
        return new SloTargets(classes);
    }

    /** A target of class node {@code t}, NaN when it gives none. */
    private static double ms(ConfigNode t, Setting<Double> target) {
        Double ms = t.get(target);
        return ms == null ? NONE : ms;
    }
}
