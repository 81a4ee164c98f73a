package io.servesim.cli;

import io.servesim.run.PolicyKind;
import picocli.CommandLine.IModelTransformer;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.ISetter;
import picocli.CommandLine.Model.OptionSpec;

/**
 * Adds one flag per {@link PolicyKind} ({@code --routing-policy}, {@code --scheduler}, ...) to a
 * command that mixes in {@link ConfigOptions}: an override of the kind's config path whose help lists
 * the kind's registered names (picocli's {@code completionCandidates}), so a new policy or kind
 * needs no change here. The command's {@code @Command(modelTransformer = PolicyFlags.class)} applies it.
 */
final class PolicyFlags implements IModelTransformer {
    @Override
    public CommandSpec transform(CommandSpec command) {
        ConfigOptions options = command.mixins().values().stream().map(CommandSpec::userObject)
                .filter(ConfigOptions.class::isInstance).map(ConfigOptions.class::cast).findFirst()
                .orElseThrow(() -> new IllegalStateException(command.name() + " has no ConfigOptions"));
        for (PolicyKind<?> kind : PolicyKind.ALL) {
            command.addOption(OptionSpec.builder(kind.flag()).type(String.class).paramLabel("<" + kind.name() + ">")
                    .description(kind.configPath() + ": ${COMPLETION-CANDIDATES}")
                    .completionCandidates(kind.registry().names())
                    .setter(new ISetter() {
                        @Override
                        public <T> T set(T value) {
                            options.policyNames.put(kind, (String) value);
                            return null;
                        }
                    })
                    .build());
        }
        return command;
    }
}
