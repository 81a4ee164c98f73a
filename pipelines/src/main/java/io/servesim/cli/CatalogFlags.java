package io.servesim.cli;

import io.servesim.config.Setting;
import io.servesim.run.SettingsCatalog;
import picocli.CommandLine.IModelTransformer;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.ISetter;
import picocli.CommandLine.Model.OptionSpec;

/**
 * The configuration flags of a command that mixes in {@link ConfigOptions}, generated rather than written: one per
 * catalog setting that declares a flag ({@link SettingsCatalog}: {@code --max-num-seqs} sets
 * {@code engine.max_num_seqs}, with the setting's description, kind, range and default as its help; a policy kind's
 * {@code --routing-policy} lists the registered names). A flag is an override of one config path ({@link ConfigOptions}
 * says where a policy's name or parameter goes), parsed and checked by the setting
 * itself when the config is bound, so no flag can be accepted and ignored, and a new setting with a flag needs no
 * change here. The command's {@code @Command(modelTransformer = CatalogFlags.class)} applies it.
 */
final class CatalogFlags implements IModelTransformer {
    @Override
    public CommandSpec transform(CommandSpec command) {
        ConfigOptions options = command.mixins().values().stream().map(CommandSpec::userObject)
                .filter(ConfigOptions.class::isInstance).map(ConfigOptions.class::cast).findFirst()
                .orElseThrow(() -> new IllegalStateException(command.name() + " has no ConfigOptions"));
        for (Setting<?> s : SettingsCatalog.ALL) {
            if (s.flagName() == null || command.findOption(s.flagName()) != null) {
                continue; // a setting without a flag, or one a command declares itself (a path relative to the working directory)
            }
            boolean flag = s.defaultValue() instanceof Boolean; // --kv-reload-on-allocation-failure alone means true
            command.addOption(OptionSpec.builder(s.flagName()).type(String.class).paramLabel("<" + label(s) + ">")
                    .arity(flag ? "0..1" : "1").fallbackValue(flag ? "true" : "")
                    .description(s.path() + ": " + s.doc() + " " + s.type().describe() + "; default " + s.defaultText())
                    .setter(new ISetter() {
                        @Override
                        public <T> T set(T value) {
                            if (value == null) {
                                options.settings.remove(s); // picocli resets an option to its initial value, none
                            } else {
                                options.settings.put(s, (String) value);
                            }
                            return null;
                        }
                    })
                    .build());
        }
        return command;
    }

    /** A flag's value label: its setting's key, or for a name ({@code policies.routing.name}) what it names. */
    private static String label(Setting<?> s) {
        if (!s.key().equals("name")) {
            return s.key();
        }
        String parent = s.path().substring(0, s.path().length() - ".name".length());
        return parent.substring(parent.lastIndexOf('.') + 1);
    }
}
