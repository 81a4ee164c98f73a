package io.servesim.cli;

import io.servesim.config.ConfigException;
import io.servesim.sim.RunPlan;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/** {@code servesim validate CONFIG}: binds and resolves a config without running it. */
@Command(name = "validate", mixinStandardHelpOptions = true,
        description = "Check a run config: every problem is printed with its config path; exit 2 if any.")
public final class ValidateCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "CONFIG", description = "run config YAML")
    Path config;

    @Mixin
    ConfigOptions options = new ConfigOptions();

    @Override
    public Integer call() {
        return run(config, options, System.out, System.err);
    }

    static int run(Path config, ConfigOptions options, PrintStream out, PrintStream err) {
        try {
            RunPlan plan = RunPlan.prepare(options.load(config));
            var e = plan.engineConfig();
            out.printf("OK %s%n  latency: %s%n  kv blocks: %d x %d tokens (%s)%n  max_model_len: %s%n",
                    config, plan.latencyModel().describe(), e.totalKvBlocks(), e.blockSizeTokens(),
                    plan.kvCapacitySource(), e.maxModelLen() == 0 ? "unlimited" : e.maxModelLen());
            out.printf("  instances: %d, policies: admission %s, priority %s, routing %s, scheduler %s%n",
                    plan.setup().cluster().instances(), plan.setup().policies().admission().name(),
                    plan.setup().policies().priority().name(), plan.setup().policies().routing().name(),
                    plan.setup().policies().scheduler().name());
            plan.warnings().forEach(w -> err.println("servesim: warning: " + w));
            return 0;
        } catch (ConfigException e) {
            err.println("servesim: invalid config " + config + ":");
            e.problems().forEach(p -> err.println("  " + p));
            return Main.CONFIG_ERROR;
        }
    }
}
