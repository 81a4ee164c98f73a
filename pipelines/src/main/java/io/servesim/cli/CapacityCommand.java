package io.servesim.cli;

import io.servesim.config.ConfigException;
import io.servesim.exit.ErrorReport;
import io.servesim.plan.CapacitySpec;
import io.servesim.plan.PlanJob;
import io.servesim.plan.PlanSpec;
import io.servesim.plan.Slo;
import io.servesim.run.RunSettings;
import io.servesim.sweep.RunnerChoice;
import io.servesim.sweep.ShellWord;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code servesim capacity CONFIG --slo ttft_p99_ms=500,...}: the highest arrival rate at which a config meets every SLO,
 * searched on a grid of {@code --tolerance} in rounds of sweeps ({@link CapacitySpec}, {@link PlanJob}); the config's
 * flags as {@code run}'s ({@code --rate} is where the search starts, {@code --num-requests} the trace of every run).
 */
@Command(name = "capacity", mixinStandardHelpOptions = true, modelTransformer = CatalogFlags.class,
        description = "The highest arrival rate at which a config meets every SLO (bisected on a grid of --tolerance);"
                + " results under out/capacity-<config name>/.")
public final class CapacityCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(index = "0", arity = "0..1", paramLabel = "CONFIG", description = "run config YAML (optional, as run's --config)")
    Path config;

    @Option(names = {"-c", "--config"}, paramLabel = "FILE", description = "the run config YAML, as run's (or give it as"
            + " CONFIG)")
    Path configOption;

    @Option(names = "--slo", required = true, split = ",", paramLabel = "METRIC=BOUND",
            description = "objectives, e.g. ttft_p99_ms=500,tpot_p90_ms=50: a cells/ column in ms (at most) or slo_attainment"
                    + " (at least); repeatable")
    List<String> slos = new ArrayList<>();

    @Option(names = "--tolerance", paramLabel = "RPS", description = "the rate grid's step, requests per second (default"
            + " the config's rate / " + CapacitySpec.DEFAULT_STEPS + ")")
    Double tolerance;

    @Option(names = "--max-rate", paramLabel = "RPS", description = "the highest rate tried (default the config's rate x "
            + CapacitySpec.DEFAULT_MAX_FACTOR + ")")
    Double maxRate;

    @Option(names = "--seeds", split = ",", paramLabel = "SEED", description = "run every rate once per seed, a rate"
            + " counting as met only when it is with every seed (default: the config's seed)")
    List<Long> seeds;

    @Mixin
    ConfigOptions configOptions = new ConfigOptions();

    @Mixin
    RunnerOptions runnerOptions = new RunnerOptions();

    @Override
    public Integer call() {
        ErrorReport errors = Main.errors(spec);
        PlanSpec plan;
        try {
            if (config != null && configOption != null) {
                throw new ConfigException("--config", "the config is given twice (" + configOption + " and CONFIG " + config
                        + "); give one");
            }
            Path config = this.config != null ? this.config : configOption;
            List<Slo> bounds = new ArrayList<>();
            for (String s : slos) {
                int eq = s.indexOf('=');
                if (eq <= 0) {
                    throw new ConfigException("--slo " + s, "expected METRIC=BOUND, e.g. ttft_p99_ms=500");
                }
                double bound;
                try {
                    bound = Double.parseDouble(s.substring(eq + 1).trim());
                } catch (NumberFormatException e) {
                    throw new ConfigException("--slo " + s, "the bound must be a number, got '" + s.substring(eq + 1) + "'");
                }
                String metric = s.substring(0, eq).trim();
                if (bounds.stream().anyMatch(b -> b.metric().equals(metric))) {
                    throw new ConfigException("--slo " + s, "a second bound on " + metric + "; give each metric once");
                }
                bounds.add(Slo.of(metric, bound, "--slo " + s));
            }
            if (seeds != null && configOptions.settings.containsKey(RunSettings.SEED)) {
                throw new ConfigException("--seed", "give --seed or --seeds, not both: --seeds runs every rate once per seed,"
                        + " each seed replacing the config's");
            }
            ConfigOptions.Tree tree = configOptions.tree(config, note -> System.err.println("servesim capacity: note: " + note));
            if (seeds != null) {
                tree.tree().remove("seed"); // --seeds replaces the config's seed, as a flag replaces a config's value
            }
            String name = "capacity-" + (config == null ? "config" : stem(config));
            if (seeds != null && seeds.size() != new java.util.HashSet<>(seeds).size()) {
                throw new ConfigException("--seeds", "a seed is given twice: " + seeds);
            }
            plan = CapacitySpec.of(name, tree.tree(), tree.baseDir().toAbsolutePath(), bounds, tolerance, maxRate, seeds);
        } catch (ConfigException e) {
            return errors.report("invalid capacity search", e);
        } catch (RuntimeException e) {
            return errors.report(e);
        }
        RunnerChoice runner;
        try {
            runner = runnerOptions.choice(); // here, not in the job: a bad runner flag is the flag's error, not the search's
        } catch (ConfigException e) {
            return errors.report(e);
        }
        return PlanCommand.print(() -> PlanJob.run(plan, command(), runnerOptions.output, runner, runnerOptions.flags(),
                System.err), "capacity", "capacity search", System.out, System.err, errors);
    }

    /** Flags with a value that this command's {@link #command} leaves to the job (the output's, the runner's). */
    private static final List<String> JOB_FLAGS = List.of("--output", "--runner", "--flink-master", "--flink-jar",
            "--parallelism");

    /**
     * This command as given, without the output and runner flags: the job adds the runner's ({@code RunnerChoice.flags})
     * and its resume command the output's.
     */
    private String command() {
        List<String> args = new ArrayList<>(List.of("capacity"));
        List<String> given = spec.commandLine().getParseResult().originalArgs();
        for (int i = given.indexOf("capacity") + 1; i < given.size(); i++) {
            String a = given.get(i);
            if (JOB_FLAGS.contains(a)) {
                i++;
            } else if (JOB_FLAGS.stream().noneMatch(f -> a.startsWith(f + "=")) && !a.equals("--overwrite")
                    && !a.equals("--resume")) {
                args.add(ShellWord.quote(a));
            }
        }
        return String.join(" ", args);
    }

    private static String stem(Path file) {
        String n = file.getFileName().toString();
        int dot = n.lastIndexOf('.');
        return dot > 0 ? n.substring(0, dot) : n;
    }
}
