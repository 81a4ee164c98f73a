package io.servesim.run;

import io.servesim.config.ConfigNode;
import io.servesim.config.Setting;
import java.util.List;

/**
 * The settings catalog as text: {@code docs/config-reference.md} (a table per section: key, value and range, default,
 * flag, description), the listing of {@code servesim config}, and the effective config of
 * {@code servesim config --effective} (each setting's resolved value and where it came from).
 */
public final class ConfigReference {
    private ConfigReference() {
    }

    /** {@code docs/config-reference.md}. */
    public static String markdown() {
        StringBuilder md = new StringBuilder("""
                # Configuration reference

                Every setting of a run config, generated from servesim's settings catalog (`io.servesim.run.SettingsCatalog`;
                `ConfigReferenceTest` fails when this file and the catalog differ: regenerate it with
                `mvn -pl simcore test -Dtest=ConfigReferenceTest -Dservesim.docs.write=true`). `scripts/servesim config`
                prints the same list; `scripts/servesim config --effective CONFIG [flags]` prints a config's resolved
                values and where each came from. Durations take a unit (`500us`, `2.5ms`, `30s`, `2m`, `1h`), and a key whose
                name ends in `_us` also a bare number of microseconds; bandwidths take a unit (`64GB/s`, `400Gb/s`) or a bare
                number of GB/s. A value outside its range is refused naming the key, the range and why. A path in a config
                (a workload file, a trace, a config.json) is relative to the config's folder, and so is one a `--set`
                writes into it (`-c configs/x.yaml --set workload=w.yaml` reads `configs/w.yaml`; without `-c`, the working
                directory); a flag's own path (`--model`, `--gpus`) is relative to the working directory.
                """);
        for (SettingsCatalog.Section s : SettingsCatalog.SECTIONS) {
            md.append("\n## ").append(s.title()).append("\n\n").append(s.doc()).append("\n\n");
            md.append("| key | value | default | flag | description |\n|---|---|---|---|---|\n");
            for (Setting<?> setting : s.settings()) {
                md.append("| `").append(setting.path()).append('`')
                        .append(setting.aliases().isEmpty() ? "" : " (also " + String.join(", ", setting.aliases()) + ")")
                        .append(" | ").append(cell(setting.type().describe()))
                        .append(setting.type().reason() == null ? "" : cell(": " + setting.type().reason()))
                        .append(" | ").append(cell(setting.defaultText()))
                        .append(" | ").append(setting.flagName() == null ? "" : "`" + setting.flagName() + "`")
                        .append(" | ").append(cell(setting.doc())).append(" |\n");
            }
        }
        return md.toString();
    }

    /** The plain-text listing: one line per setting (path, value kind and range, default, flag), then its description. */
    public static String listing() {
        StringBuilder out = new StringBuilder();
        for (SettingsCatalog.Section s : SettingsCatalog.SECTIONS) {
            out.append(s.title()).append(": ").append(s.doc()).append('\n');
            for (Setting<?> setting : s.settings()) {
                out.append("  ").append(setting.path()).append(" = ").append(setting.defaultText())
                        .append("  [").append(setting.type().describe()).append(']')
                        .append(setting.flagName() == null ? "" : "  " + setting.flagName()).append('\n')
                        .append("      ").append(setting.doc()).append('\n');
            }
        }
        return out.toString();
    }

    /** A config's effective settings: path = value, and where it came from. */
    public static String effective(List<ConfigNode.Resolved> resolved) {
        int width = resolved.stream().mapToInt(r -> r.path().length()).max().orElse(0);
        StringBuilder out = new StringBuilder();
        for (ConfigNode.Resolved r : resolved) {
            out.append(String.format("%-" + width + "s  %-24s  %s%n", r.path(), r.value(), source(r)));
        }
        return out.toString();
    }

    private static String source(ConfigNode.Resolved r) {
        return switch (r.source()) {
            case DEFAULT -> "default";
            case DERIVED -> "derived";
            case FILE -> "file";
            case FLAG -> "flag";
        };
    }

    private static String cell(String text) {
        return text == null ? "" : text.replace("|", "\\|");
    }
}
