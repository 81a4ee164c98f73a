package io.servesim.run;

import io.servesim.config.Setting;
import io.servesim.engine.EngineSettings;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Every setting of a run config, one list per section, each declared beside the binder that reads it (as the
 * Caffeine simulator's {@code Registry} lists its policies explicitly): the one place {@code servesim config}, the
 * generated command-line flags and {@code docs/config-reference.md} ({@link ConfigReference}) read. A path or a flag
 * is declared once: {@link #ALL} refuses duplicates as it is built.
 */
public final class SettingsCatalog {
    /** A titled group of settings: one config section. */
    public record Section(String title, String doc, List<Setting<?>> settings) {
    }

    /** The sections, in documentation order. */
    public static final List<Section> SECTIONS = List.of(
            new Section("run", "The seed, the limits of a run and the fitness it is scored by.", RunSettings.ALL),
            new Section("deployment", "What is served, on which GPU and how many, priced by which latency model.",
                    DeploymentSettings.ALL),
            new Section("engine", "One vLLM instance: scheduler limits, the KV cache and its CPU tier. Also under"
                    + " deployment.pd.<pool>.engine, laid over the top-level engine.", EngineSettings.ALL),
            new Section("frontend", "The serving front end of every instance: the API server's work before a request reaches"
                    + " the engine core and after each token is sampled, and the client network of requests without one.",
                    io.servesim.engine.FrontEndSettings.ALL));

    /** Every setting, in section order. */
    public static final List<Setting<?>> ALL = all();

    private static final Map<String, Setting<?>> BY_FLAG = byFlag();

    private SettingsCatalog() {
    }

    /** The setting a command-line flag sets ({@code --max-num-seqs}), if any. */
    public static Optional<Setting<?>> byFlag(String flag) {
        return Optional.ofNullable(BY_FLAG.get(flag));
    }

    private static List<Setting<?>> all() {
        List<Setting<?>> all = new ArrayList<>();
        Map<String, Setting<?>> paths = new HashMap<>();
        for (Section s : SECTIONS) {
            for (Setting<?> setting : s.settings()) {
                if (paths.put(setting.path(), setting) != null) {
                    throw new IllegalStateException("setting " + setting.path() + " is declared twice");
                }
                all.add(setting);
            }
        }
        return Collections.unmodifiableList(all);
    }

    private static Map<String, Setting<?>> byFlag() {
        Map<String, Setting<?>> flags = new HashMap<>();
        for (Setting<?> s : ALL) {
            if (s.flagName() != null && flags.put(s.flagName(), s) != null) {
                throw new IllegalStateException("flag " + s.flagName() + " is declared for two settings");
            }
        }
        return Collections.unmodifiableMap(flags);
    }
}
