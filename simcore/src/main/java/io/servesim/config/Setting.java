package io.servesim.config;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Objects;

/**
 * One config key, declared once: where it lives, what it holds (its {@link ValueType}: kind, unit, valid range and why),
 * its default, a line of documentation, the command-line flag that sets it and the other names it may be written
 * under. Binders read values through their settings ({@link ConfigNode#get}), so a default or a range is written here
 * and nowhere else; {@code servesim config} lists every setting, {@code --effective} shows the resolved value of each
 * and where it came from, the CLI's flags are generated from the flags declared here, and
 * {@code docs/config-reference.md} is rendered from the catalog.
 *
 * <p>A setting's path is documentation: the binder reads its last segment ({@link #key()}) from the node it binds, so
 * one declaration serves every place the section appears (the top-level {@code engine:} and a P/D pool's
 * {@code deployment.pd.prefill.engine:}); {@code []} in a path stands for any list element
 * ({@code workload.clients[].rate_fraction}).
 *
 * @param <T> the bound value's Java type
 */
public final class Setting<T> {
    private final String path;
    private final ValueType<T> type;
    private final T defaultValue;
    private final String defaultText;
    private final String doc;
    private final String flag;
    private final List<String> aliases;
    /** The config must give it (a binder or {@code PolicySpec.requireValid} refuses its absence). */
    private final boolean required;

    private Setting(String path, ValueType<T> type, T defaultValue, String defaultText, String doc, String flag,
                    List<String> aliases, boolean required) {
        this.path = Objects.requireNonNull(path);
        this.type = Objects.requireNonNull(type);
        this.defaultValue = defaultValue;
        this.defaultText = defaultText;
        this.doc = Objects.requireNonNull(doc);
        this.flag = flag;
        this.aliases = List.copyOf(aliases);
        this.required = required;
        if (defaultValue != null) {
            type.check(defaultValue, path); // a default outside its own range is a bug in the declaration
        }
    }

    /** A setting of {@code type} at {@code path} whose value is {@code defaultValue} when the config omits it. */
    public static <T> Setting<T> of(String path, ValueType<T> type, T defaultValue, String doc) {
        return new Setting<>(path, type, defaultValue, null, doc, null, List.of(), false);
    }

    /**
     * A setting with no fixed default: absent, it is {@code null} to the binder, which derives it (from the model, the
     * GPU, ...) or requires it; {@code defaultText} says what happens then ("the model's max_position_embeddings").
     */
    public static <T> Setting<T> derived(String path, ValueType<T> type, String defaultText, String doc) {
        return new Setting<>(path, type, null, Objects.requireNonNull(defaultText), doc, null, List.of(), false);
    }

    /** A setting the config must give: no default, nothing to derive it from ({@link #required()}). */
    public static <T> Setting<T> required(String path, ValueType<T> type, String doc) {
        return new Setting<>(path, type, null, "required", doc, null, List.of(), true);
    }

    /** Whether the config must give this setting ({@link #required(String, ValueType, String)}). */
    public boolean required() {
        return required;
    }

    /** This setting, also set by the command-line {@code flag} (e.g. {@code --max-num-seqs}). */
    public Setting<T> flag(String flag) {
        return new Setting<>(path, type, defaultValue, defaultText, doc, flag, aliases, required);
    }

    /** This setting, also accepted under {@code names} in the same mapping (vLLM's or BLIS's names for it). */
    public Setting<T> alias(String... names) {
        return new Setting<>(path, type, defaultValue, defaultText, doc, flag, List.of(names), required);
    }

    /** The documented path, e.g. {@code engine.max_num_seqs}. */
    public String path() {
        return path;
    }

    /** The key a binder reads: the path's last segment. */
    public String key() {
        int dot = path.lastIndexOf('.');
        return dot < 0 ? path : path.substring(dot + 1);
    }

    public ValueType<T> type() {
        return type;
    }

    /**
     * This setting's value of {@code v}, parsed and range-checked by its type; a {@link ConfigException} at {@code at}
     * says what is wrong. For values read outside a {@link ConfigNode} (a policy's params, {@code PolicySpec.get}).
     */
    public T parse(JsonNode v, String at) {
        return type.parse(v, at);
    }

    /** The default, or null when the value is derived or required ({@link #defaultText()}). */
    public T defaultValue() {
        return defaultValue;
    }

    /** The default as documented: the value rendered in its unit, or what a derived setting falls back to. */
    public String defaultText() {
        return defaultValue != null ? type.render(defaultValue) : defaultText;
    }

    public String doc() {
        return doc;
    }

    /** The command-line flag, or null. */
    public String flagName() {
        return flag;
    }

    /** Other names the key may be written under. */
    public List<String> aliases() {
        return aliases;
    }

    @Override
    public String toString() {
        return path;
    }
}
