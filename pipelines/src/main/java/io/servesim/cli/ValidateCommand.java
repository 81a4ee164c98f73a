package io.servesim.cli;

import io.servesim.exit.ErrorReport;
import io.servesim.run.PolicyKind;
import io.servesim.run.RunPlan;
import io.servesim.workload.TraceSpec;
import io.servesim.workload.trace.TraceHead;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code servesim validate CONFIG}: binds and resolves a config without running it; a trace workload's
 * header and first {@value TraceHead#DEFAULT_LINES} lines are read too ({@link TraceHead}).
 */
@Command(name = "validate", mixinStandardHelpOptions = true, modelTransformer = PolicyFlags.class,
        description = "Check a run config (and a trace's header and first " + TraceHead.DEFAULT_LINES + " lines): every"
                + " problem is printed with its config path or file:line; exit 2 if any.")
public final class ValidateCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "CONFIG", description = "run config YAML")
    Path config;

    @Mixin
    ConfigOptions options = new ConfigOptions();

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        return run(config, options, System.out, System.err, Main.debug(spec));
    }

    static int run(Path config, ConfigOptions options, PrintStream out, PrintStream err, boolean debug) {
        try {
            RunPlan plan = RunPlan.prepare(options.load(config, note -> err.println("servesim validate: " + note)));
            if (plan.config().workload() instanceof TraceSpec trace) {
                TraceHead.check(trace, TraceHead.DEFAULT_LINES);
            }
            var setup = plan.setup();
            out.printf("OK %s%n", config);
            if (setup.pd() == null) {
                var e = plan.engineConfig();
                out.printf("  latency: %s%n  kv blocks: %d x %d tokens (%s)%n  max_model_len: %s%n",
                        plan.latencyModel().describe(), e.totalKvBlocks(), e.blockSizeTokens(),
                        plan.kvCapacitySource(), maxModelLen(e.maxModelLen()));
            } else {
                var pd = setup.pd();
                out.printf("  architecture: pd, decider %s, transfers %s + bytes at %.1f GB/s per link (%s)%n",
                        pd.decider().configName(), pd.transfer().latencyUs() / 1000.0 + " ms",
                        pd.transfer().bandwidthGbPerS(), pd.transfer().topology().configName());
                for (var pool : List.of(pd.prefill(), pd.decode())) {
                    var e = pool.engine();
                    out.printf("  %s pool: %d x %s%n    kv blocks: %d x %d tokens, max_model_len: %s%n", pool.name(),
                            pool.replicas(), pool.latency().describe(), e.totalKvBlocks(), e.blockSizeTokens(),
                            maxModelLen(e.maxModelLen()));
                }
                out.printf("  kv capacity: %s%n", plan.kvCapacitySource());
            }
            out.printf("  instances: %d, policies: %s%n", setup.pd() == null ? setup.cluster().instances() : setup.pd().instances(),
                    PolicyKind.ALL.stream().filter(k -> k != PolicyKind.AUTOSCALE || setup.autoscaling().enabled())
                            .map(k -> k + " " + setup.policies().spec(k).name()).collect(Collectors.joining(", ")));
            plan.warnings().forEach(w -> err.println("servesim validate: warning: " + w));
            return 0;
        } catch (RuntimeException e) {
            return new ErrorReport("validate", err, debug).report("invalid config " + config, e);
        }
    }

    private static String maxModelLen(int tokens) {
        return tokens == 0 ? "unlimited" : String.valueOf(tokens);
    }
}
