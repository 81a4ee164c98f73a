package io.servesim.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.servesim.config.ConfigException;
import io.servesim.config.StrictJson;
import io.servesim.engine.EngineConfig;
import io.servesim.exit.ErrorReport;
import io.servesim.exit.ExitCode;
import io.servesim.exit.UsageException;
import io.servesim.plan.PlanFile;
import io.servesim.plan.PlanSpec;
import io.servesim.run.PolicyKind;
import io.servesim.run.RunPlan;
import io.servesim.sweep.SweepFile;
import io.servesim.sweep.SweepPlan;
import io.servesim.sweep.SweepSpec;
import io.servesim.workload.TraceSpec;
import io.servesim.workload.trace.TraceHead;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code servesim validate CONFIG}: binds and resolves a config without running it; a trace workload's
 * header and first {@value TraceHead#DEFAULT_LINES} lines are read too ({@link TraceHead}). A sweep file
 * ({@link SweepFile#isSweep}) has every cell validated as {@code servesim sweep} validates them, a plan file
 * ({@link PlanFile#isPlan}) every candidate as {@code servesim plan} does.
 */
@Command(name = "validate", mixinStandardHelpOptions = true, modelTransformer = CatalogFlags.class,
        description = "Check a run config (and a trace's header and first " + TraceHead.DEFAULT_LINES + " lines), or every"
                + " cell of a sweep file as sweep does, or every candidate of a plan file as plan does: every problem is printed"
                + " with its config path or file:line; exit 2 if any.")
public final class ValidateCommand implements Callable<Integer> {
    @Parameters(index = "0", arity = "0..1", paramLabel = "CONFIG", description = "run config YAML, a sweep file or a plan"
            + " file")
    Path config;

    @Option(names = {"-c", "--config"}, paramLabel = "FILE", description = "the file to check, as run's (or give it as"
            + " CONFIG)")
    Path configOption;

    @Mixin
    ConfigOptions options = new ConfigOptions();

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        if (config != null && configOption != null) {
            return Main.errors(spec).report(new ConfigException("--config", "the file is given twice (" + configOption
                    + " and CONFIG " + config + "); give one"));
        }
        if (config == null && configOption == null) {
            return Main.errors(spec).report(new ConfigException("CONFIG", "required: the run config, sweep file or plan"
                    + " file to check (as CONFIG or -c FILE)"));
        }
        Path config = this.config != null ? this.config : configOption;
        JsonNode tree = readOrNull(config);
        if (PlanFile.isPlan(tree)) {
            return validatePlan(config, spec, System.out, Main.errors(spec));
        }
        if (SweepFile.isSweep(tree)) {
            return validateSweep(config, spec, System.out, Main.errors(spec));
        }
        return run(config, options, System.out, System.err, Main.debug(spec));
    }

    /** {@code file} read as a mapping, or null when it does not read (left to the config path, which says why). */
    private static JsonNode readOrNull(Path file) {
        try {
            return StrictJson.readMapping(file);
        } catch (RuntimeException e) {
            return null;
        }
    }

    /** The config flags given, which a sweep or plan file's own values leave nothing to apply to. */
    private static List<String> configFlags(CommandSpec spec) {
        return spec.commandLine().getParseResult().matchedOptions().stream()
                .filter(o -> !o.usageHelp() && !o.versionHelp() && !o.longestName().equals("--config"))
                .map(OptionSpec::longestName).toList();
    }

    /**
     * A plan file ({@link PlanFile#isPlan}): bound, and every candidate's config bound and prepared, as {@code servesim
     * plan} does before it runs anything; the candidates vLLM would refuse to start are listed with why (the plan
     * leaves them out), and a problem of the plan's own exits 2.
     */
    static int validatePlan(Path file, CommandSpec spec, PrintStream out, ErrorReport errors) {
        List<String> flags = configFlags(spec);
        if (!flags.isEmpty()) {
            return errors.report(new UsageException(flags.get(0) + ": does not apply to a plan file (" + file
                    + ": its base config and space set every value); put it in the plan's base"));
        }
        try {
            PlanSpec plan = PlanFile.load(file);
            Map<String, String> invalid = PlanFile.invalidCandidates(plan);
            out.printf("OK %s: plan %s, %d candidates%s%n", file, plan.name(), plan.candidates().size(),
                    invalid.isEmpty() ? "" : ", " + invalid.size() + " of which cannot run and are left out:");
            invalid.forEach((id, why) -> out.printf("  %s: %s%n", id, why));
            return ExitCode.OK;
        } catch (RuntimeException e) {
            return errors.report("invalid plan " + file, e);
        }
    }

    /**
     * A sweep file: every cell is bound and checked as {@code servesim sweep} does before it runs anything ({@link
     * SweepPlan#prepare}): the same listing of every invalid cell and exit 2 on any, else "N cells valid". The config
     * flags do not apply (the sweep's base and axes set the values) and are refused rather than ignored.
     */
    static int validateSweep(Path file, CommandSpec spec, PrintStream out, ErrorReport errors) {
        List<String> flags = configFlags(spec);
        if (!flags.isEmpty()) {
            return errors.report(new UsageException(flags.get(0) + ": does not apply to a sweep file (" + file
                    + ": its base config and axes set every value); validate the base config with the flag, or put it in the sweep"));
        }
        SweepSpec sweep;
        try {
            sweep = SweepFile.load(file);
        } catch (RuntimeException e) {
            return errors.report("invalid sweep " + file, e);
        }
        try {
            SweepPlan plan = SweepPlan.prepare(sweep);
            out.printf("OK %s: %d cells valid%n", file, plan.cells().size());
            plan.warningLines().forEach(errors::warning);
            return ExitCode.OK;
        } catch (RuntimeException e) {
            return errors.report(file.toString(), e);
        }
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
                // a lockstep expert-parallel group's step, as the run's summary describes it
                String latency = setup.expertParallel() != null ? setup.expertParallel().describe()
                        : plan.latencyModel().describe();
                out.printf("  engine: %s%n  latency: %s%n  kv blocks: %d x %d tokens (%s)%n  max_model_len: %s%n",
                        engine(e), latency, e.totalKvBlocks(), e.blockSizeTokens(),
                        plan.kvCapacitySource(), maxModelLen(e.maxModelLen()));
            } else {
                var pd = setup.pd();
                out.printf("  architecture: pd, decider %s, transfers %s + bytes at %.1f GB/s per link (%s)%n",
                        pd.decider().configName(), pd.transfer().latencyUs() / 1000.0 + " ms",
                        pd.transfer().bandwidthGbPerS(), pd.transfer().topology().configName());
                for (var pool : List.of(pd.prefill(), pd.decode())) {
                    var e = pool.engine();
                    out.printf("  %s pool: %d x %s%n    engine: %s%n    kv blocks: %d x %d tokens, max_model_len: %s%n",
                            pool.name(), pool.replicas(), pool.latency().describe(), engine(e), e.totalKvBlocks(),
                            e.blockSizeTokens(), maxModelLen(e.maxModelLen()));
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

    /** The engine core and its CPU KV tier, e.g. {@code vllm core, CPU KV tier of 20000 blocks per instance}. */
    private static String engine(EngineConfig e) {
        return e.kindName() + " core, " + (e.kvTiers().enabled() ? "CPU KV tier of " + e.kvTiers().cpuBlocks()
                + " blocks per instance" : "no CPU KV tier");
    }

    private static String maxModelLen(int tokens) {
        return tokens == 0 ? "unlimited" : String.valueOf(tokens);
    }
}
