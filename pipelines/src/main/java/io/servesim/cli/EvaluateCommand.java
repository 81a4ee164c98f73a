package io.servesim.cli;

import io.servesim.config.ConfigException;
import io.servesim.evaluate.Evaluation;
import io.servesim.evaluate.EvaluationFormat;
import io.servesim.evaluate.Evaluator;
import io.servesim.exit.ErrorReport;
import io.servesim.exit.ExitCode;
import io.servesim.run.PolicyBundleFile;
import io.servesim.run.PolicyKind;
import io.servesim.run.RunPlan;
import io.servesim.run.RunSettings;
import io.servesim.run.SimConfig;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code servesim evaluate}: runs a policy candidate ({@code --policy-config}: policy parameters only)
 * on a base config and/or workloads over one or more seeds and prints one JSON object in the shape of
 * a search framework ({@link EvaluationFormat}). The base is checked without the candidate first, so
 * a bad base is an ordinary error (exit 2, stderr) while a bad candidate is a fitness-free JSON error
 * on stdout naming every bad path (exit 2), which a search loop records and moves past.
 */
@Command(name = "evaluate", mixinStandardHelpOptions = true, modelTransformer = CatalogFlags.class, description = {
    "Evaluate a policy candidate: fitness, raw metrics, behaviour descriptors and a decision-trace summary as one JSON.",
    "Each --workload x seed is one run; fitness is the mean over runs."})
public final class EvaluateCommand implements Callable<Integer> {
    @Option(names = {"-c", "--config"}, paramLabel = "FILE", description = "base run config YAML")
    Path config;

    @Option(names = "--workload", paramLabel = "FILE", description = "workload YAML replacing the base's workload (repeatable)")
    List<Path> workloads = new ArrayList<>();

    @Option(names = "--seeds", paramLabel = "N,...", split = ",", description = "seeds to run (default: the config's seed)")
    List<Long> seeds = new ArrayList<>();

    @Option(names = "--format", paramLabel = "FORMAT", description = "native (default), gepa or openevolve")
    String format = "native";

    @Option(names = "--counterfactual-sample", paramLabel = "N", description = "per run, re-simulate N sampled routing"
            + " decisions (seeded by the run's seed) with the request sent to each other top-" + Evaluator.COUNTERFACTUAL_K
            + " candidate: realized regret in each trace summary (costs up to N x " + (Evaluator.COUNTERFACTUAL_K - 1)
            + " + 1 extra runs per run)")
    int counterfactualSample;

    @Mixin
    ConfigOptions options = new ConfigOptions();

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        return run(this, System.out, new ErrorReport("evaluate", System.err, Main.debug(spec)));
    }

    static int run(EvaluateCommand c, PrintStream out, ErrorReport errors) {
        EvaluationFormat fmt;
        Path candidate = c.options.policyConfig;
        try {
            fmt = EvaluationFormat.valueOf(c.format.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            return errors.report(new ConfigException("--format", "unknown format '" + c.format + "'; valid: "
                    + String.join(", ", EvaluationFormat.keys())));
        }
        if (candidate == null) {
            return errors.report(new ConfigException("--policy-config", "required: the candidate to evaluate"));
        }
        if (c.counterfactualSample < 0) {
            return errors.report(new ConfigException("--counterfactual-sample", "must be >= 0, got " + c.counterfactualSample));
        }
        if (new java.util.HashSet<>(c.seeds).size() < c.seeds.size()) {
            // a repeated seed is the same deterministic run twice: it would weigh that run double in the fitness
            return errors.report(new ConfigException("--seeds", "each seed at most once, got " + c.seeds));
        }
        if (!c.seeds.isEmpty() && c.options.settings.containsKey(RunSettings.SEED)) {
            return errors.report(new ConfigException("--seed", "give --seed or --seeds, not both: --seeds runs the"
                    + " candidate once per seed, each seed replacing the config's"));
        }
        if (!c.seeds.isEmpty() && c.options.sets.stream().anyMatch(set -> setPath(set).equals("seed"))) {
            return errors.report(new ConfigException("--set seed", "give --set seed or --seeds, not both: --seeds runs the"
                    + " candidate once per seed, each seed replacing the config's (the --set made every run the same)"));
        }
        if (new java.util.HashSet<>(c.workloads).size() < c.workloads.size()) {
            return errors.report(new ConfigException("--workload", "each workload at most once, got " + c.workloads));
        }
        if (c.config == null && c.workloads.isEmpty()) {
            return errors.report(new ConfigException("--config", "required: a base config (-c) or --workload FILE"));
        }
        try {
            c.options.policyConfig = null;
            SimConfig base = c.load(c.workloads.isEmpty() ? null : c.workloads.get(0), null);
            if (base.fitness().isEmpty()) {
                throw new ConfigException("fitness_weights", "required by evaluate: fitness_weights in the config or"
                        + " --fitness-weights");
            }
        } catch (RuntimeException e) {
            // flags are reported at the config paths they set, as run and validate do
            return errors.report("invalid base config" + (c.config == null ? "" : " " + c.config) + " or flags", e);
        } finally {
            c.options.policyConfig = candidate;
        }
        java.util.Set<String> kinds;
        try {
            kinds = PolicyBundleFile.read(candidate).keySet();
            if (kinds.isEmpty()) {
                // scoring the base config as if it were the candidate would hand a search loop a fitness for nothing
                throw new ConfigException(candidate.toString(), "sets no policy: a candidate sets at least one of "
                        + String.join(", ", PolicyKind.ALL.stream().map(PolicyKind::name).toList()));
            }
        } catch (ConfigException e) {
            out.println(Json.render(EvaluationFormat.error(candidate.toString(), e)));
            return ExitCode.CONFIG_ERROR;
        }
        ConfigException conflict = flagOverridingTheCandidate(c.options, kinds);
        if (conflict == null) {
            conflict = setOverridingTheCandidate(c.options, kinds, candidate);
        }
        if (conflict != null) {
            return errors.report(conflict);
        }
        List<Evaluator.Case> cases = new ArrayList<>();
        try {
            for (Path w : c.workloads.isEmpty() ? java.util.Collections.<Path>singletonList(null) : c.workloads) {
                for (Long seed : c.seeds.isEmpty() ? java.util.Collections.<Long>singletonList(null) : c.seeds) {
                    RunPlan plan = RunPlan.prepare(c.load(w, seed));
                    String label = (w == null ? String.valueOf(c.config.getFileName()) : String.valueOf(w.getFileName()))
                            + "@seed=" + plan.config().seed();
                    cases.add(new Evaluator.Case(label, plan));
                }
            }
        } catch (ConfigException e) {
            out.println(Json.render(EvaluationFormat.error(candidate.toString(), e)));
            return ExitCode.CONFIG_ERROR;
        }
        cases.stream().flatMap(k -> k.plan().warnings().stream()).distinct().forEach(errors::warning);
        Evaluation evaluation;
        try {
            evaluation = Evaluator.evaluate(candidate.toString(), cases, c.counterfactualSample, errors::note);
        } catch (RuntimeException e) {
            return errors.report(e);
        }
        out.println(Json.render(fmt.render(evaluation)));
        return 0;
    }

    /**
     * The conflict of a policy flag with a kind the candidate sets (the flag would replace the candidate's policy
     * without a word), or null.
     */
    private static ConfigException flagOverridingTheCandidate(ConfigOptions options, java.util.Set<String> kinds) {
        for (var flag : options.settings.keySet()) {
            PolicyKind<?> kind = PolicyKind.of(flag);
            if (kind != null && kinds.contains(kind.name())) {
                return new ConfigException(flag.flagName(), "conflicts with the candidate's " + kind.name() + " policy ("
                        + options.policyConfig + "): the flag would replace " + (flag == kind.nameSetting()
                        ? "the policy being evaluated; remove the flag or the candidate's " + kind.name()
                        : "its " + flag.key() + "; remove the flag or set it in the candidate"));
            }
        }
        return null;
    }

    /** The path a {@code --set path=value} sets. */
    private static String setPath(String set) {
        int eq = set.indexOf('=');
        return (eq < 0 ? set : set.substring(0, eq)).strip();
    }

    /**
     * The conflict of a {@code --set} under {@code policies} with a kind the candidate sets ({@code --set
     * policies.routing.name=...} would score another policy in the candidate's name), or null.
     */
    private static ConfigException setOverridingTheCandidate(ConfigOptions options, java.util.Set<String> kinds,
                                                             Path candidate) {
        for (String set : options.sets) {
            String path = setPath(set);
            String[] parts = path.split("\\.", 3);
            if (!parts[0].equals("policies")) {
                continue;
            }
            if (parts.length == 1 || kinds.contains(parts[1])) {
                return new ConfigException("--set " + path, "conflicts with the candidate's " + (parts.length == 1
                        ? String.join(", ", kinds) + " " + (kinds.size() == 1 ? "policy" : "policies") : parts[1] + " policy")
                        + " (" + candidate + "): the --set would replace what is being evaluated; remove it or set it in the"
                        + " candidate");
            }
        }
        return null;
    }

    /** The base (or defaults), the workload file and seed as overrides, then the candidate and flags. */
    private SimConfig load(Path workload, Long seed) {
        List<String> saved = options.sets;
        List<String> sets = new ArrayList<>();
        if (workload != null) {
            sets.add("workload='" + workload.toAbsolutePath().toString().replace("'", "''") + "'");
        }
        if (seed != null) {
            sets.add("seed=" + seed);
        }
        sets.addAll(saved);
        options.sets = sets;
        try {
            return options.load(config, note -> { });
        } finally {
            options.sets = saved;
        }
    }
}
