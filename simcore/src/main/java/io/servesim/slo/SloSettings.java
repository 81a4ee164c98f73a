package io.servesim.slo;

import io.servesim.config.Setting;
import io.servesim.config.ValueType;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * The {@code slo:} settings: per SLO class, latency targets in milliseconds (TTFT, TPOT as vLLM's benchmark defines them,
 * end-to-end); a request meets its SLO when every target of its class is met. Bound by {@link SloTargets#bind}. The
 * built-in classes follow common serving tiers ({@link #BUILT_IN}); a config that names a class replaces its targets.
 */
public final class SloSettings {
    /** The classes a config has without naming them: realtime, interactive, standard and batch tiers. */
    public static final Map<String, SloTargets.Target> BUILT_IN = builtIn();

    private static final ValueType.Real TARGET_MS = ValueType.real(0, 86_400_000).above().in("ms",
            "a target of 0 ms is met by no request, one beyond a day is no latency objective");

    public static final Setting<Double> TTFT_MS = Setting.derived("slo.<class>.ttft_ms", TARGET_MS,
            builtIn(SloTargets.Target::ttftMs), "Time to first token at most, for requests of SLO class <class>.");
    public static final Setting<Double> TPOT_MS = Setting.derived("slo.<class>.tpot_ms", TARGET_MS,
            builtIn(SloTargets.Target::tpotMs), "Time per output token at most (after the first).");
    public static final Setting<Double> E2E_MS = Setting.derived("slo.<class>.e2e_ms", TARGET_MS,
            builtIn(SloTargets.Target::e2eMs), "End-to-end latency at most.");

    /** Every SLO setting, in documentation order. */
    public static final List<Setting<?>> ALL = List.of(TTFT_MS, TPOT_MS, E2E_MS);

    private SloSettings() {
    }

    private static Map<String, SloTargets.Target> builtIn() {
        double none = Double.NaN;
        Map<String, SloTargets.Target> m = new LinkedHashMap<>();
        m.put("realtime", new SloTargets.Target(200, 50, none));
        m.put("interactive", new SloTargets.Target(1000, 100, none));
        m.put("standard", new SloTargets.Target(2000, 200, none));
        m.put("batch", new SloTargets.Target(none, none, 600_000));
        return java.util.Collections.unmodifiableMap(m);
    }

    /** What a class the config does not give this target has: none, or a built-in class's own. */
    private static String builtIn(ToDoubleFunction<SloTargets.Target> target) {
        StringBuilder out = new StringBuilder("none; a built-in class the config does not name keeps its own (");
        String sep = "";
        for (Map.Entry<String, SloTargets.Target> e : BUILT_IN.entrySet()) {
            double ms = target.applyAsDouble(e.getValue());
            if (!Double.isNaN(ms)) {
                out.append(sep).append(e.getKey()).append(' ').append(TARGET_MS.render(ms));
                sep = ", ";
            }
        }
        return out.append(')').toString();
    }
}
