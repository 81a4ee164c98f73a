package io.servesim.cli;

import io.servesim.config.ConfigNode;
import io.servesim.disagg.PdSetup;
import io.servesim.disagg.PoolSetup;
import io.servesim.exit.ErrorReport;
import io.servesim.exit.UsageException;
import io.servesim.run.ConfigReference;
import io.servesim.run.RunPlan;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Spec;

/**
 * {@code servesim config}: every setting of a run config from the settings catalog (path, default, kind and range,
 * flag, description); with {@code --effective}, a config's resolved settings, each with where its value came from
 * (default, derived, file, flag), as {@code run} would bind them with the same flags.
 */
@Command(name = "config", mixinStandardHelpOptions = true, modelTransformer = CatalogFlags.class, description = {
    "List every setting (default, range, flag, description), or with --effective a config's resolved settings and where",
    "each value came from (default, derived, file, flag)."})
public final class ConfigCommand implements Callable<Integer> {
    @Option(names = "--effective", description = "print the resolved settings of --config (or of the defaults) and the flags")
    boolean effective;

    @Option(names = {"-c", "--config"}, paramLabel = "FILE", description = "run config YAML, for --effective")
    Path config;

    @Mixin
    ConfigOptions options = new ConfigOptions();

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        return run(System.out, Main.errors(spec));
    }

    /**
     * {@code r} with what the run resolves in place of the catalog's words: the KV capacity and {@code max_model_len}
     * derived (as {@code validate} prints them), the latency model {@code auto} chose and whether the front end is on.
     * A P/D deployment's pools show their own.
     */
    private static ConfigNode.Resolved resolved(ConfigNode.Resolved r, RunPlan plan) {
        boolean aggregated = plan.config().pd() == null;
        String value = switch (r.path()) {
            case "engine.total_kv_blocks" -> r.source() != ConfigNode.Source.DERIVED ? null : aggregated
                    ? plan.engineConfig().totalKvBlocks() + " (" + plan.kvCapacitySource() + ")" : "each P/D pool's, below";
            case "engine.max_model_len" -> r.source() != ConfigNode.Source.DERIVED ? null : aggregated
                    ? String.valueOf(plan.engineConfig().maxModelLen()) : "each P/D pool's, below";
            case "deployment.latency_model" -> aggregated && "auto".equals(r.value())
                    ? "auto: " + plan.latencyModel().name() : null;
            case "frontend.enabled" -> r.source() == ConfigNode.Source.DERIVED
                    ? (plan.setup().frontEnd().enabled() ? "on" : "off") : null;
            default -> aggregated || r.source() != ConfigNode.Source.DERIVED ? null : pool(r.path(), plan.setup().pd());
        };
        return value == null ? r : new ConfigNode.Resolved(r.path(), r.setting(), value, r.source());
    }

    /** A P/D pool's derived KV capacity, max_model_len or latency model ({@code deployment.pd.<pool>.…}), else null. */
    private static String pool(String path, PdSetup pd) {
        for (PoolSetup p : List.of(pd.prefill(), pd.decode())) {
            String at = "deployment.pd." + p.name() + ".";
            if (path.equals(at + "engine.total_kv_blocks")) {
                return String.valueOf(p.engine().totalKvBlocks());
            } else if (path.equals(at + "engine.max_model_len")) {
                return String.valueOf(p.engine().maxModelLen());
            } else if (path.equals(at + "latency_model")) {
                return p.latency().name();
            }
        }
        return null;
    }

    int run(PrintStream out, ErrorReport errors) {
        if (!effective) {
            List<String> given = spec.commandLine().getParseResult().matchedOptions().stream()
                    .filter(o -> !o.usageHelp() && !o.versionHelp()).map(OptionSpec::longestName).toList();
            if (!given.isEmpty()) {
                return errors.report(new UsageException(String.join(", ", given) + ": only applies with --effective"
                        + " (without it, config lists every setting's default, range and flag)"));
            }
            out.print(ConfigReference.listing());
            return 0;
        }
        try {
            List<ConfigNode.Resolved> rows = options.effective(config, errors::note);
            RunPlan plan = RunPlan.prepare(options.load(config, note -> { })); // its notes are the lines above's
            out.print(ConfigReference.effective(rows.stream().map(r -> resolved(r, plan)).toList()));
            return 0;
        } catch (RuntimeException e) {
            return errors.report("invalid config" + (config == null ? "" : " " + config), e);
        }
    }
}
