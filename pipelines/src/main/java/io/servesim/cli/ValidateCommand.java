package io.servesim.cli;

import io.servesim.exit.ErrorReport;
import io.servesim.run.PolicyKind;
import io.servesim.run.RunPlan;
import io.servesim.workload.TraceSpec;
import io.servesim.workload.trace.TraceHead;
import java.io.PrintStream;
import java.nio.file.Path;
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
            var e = plan.engineConfig();
            out.printf("OK %s%n  latency: %s%n  kv blocks: %d x %d tokens (%s)%n  max_model_len: %s%n",
                    config, plan.latencyModel().describe(), e.totalKvBlocks(), e.blockSizeTokens(),
                    plan.kvCapacitySource(), e.maxModelLen() == 0 ? "unlimited" : e.maxModelLen());
            out.printf("  instances: %d, policies: %s%n", plan.setup().cluster().instances(),
                    PolicyKind.ALL.stream().map(k -> k + " " + plan.setup().policies().spec(k).name())
                            .collect(Collectors.joining(", ")));
            plan.warnings().forEach(w -> err.println("servesim validate: warning: " + w));
            return 0;
        } catch (RuntimeException e) {
            return new ErrorReport("validate", err, debug).report("invalid config " + config, e);
        }
    }
}
