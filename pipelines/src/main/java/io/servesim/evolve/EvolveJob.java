package io.servesim.evolve;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.servesim.config.ConfigException;
import io.servesim.io.OutputLock;
import io.servesim.run.PolicyKind;
import io.servesim.sweep.InterruptGuard;
import io.servesim.sweep.OutputCommit;
import io.servesim.sweep.OutputDir;
import io.servesim.sweep.RoundsLayout;
import io.servesim.sweep.RunnerChoice;
import io.servesim.sweep.SweepJob;
import io.servesim.sweep.SweepPlan;
import io.servesim.sweep.SweepResult;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The work of {@code servesim evolve}: check the baselines, check the output folder under the rules a sweep's follows
 * ({@link EvolveLayout}; {@code --resume}, {@code --overwrite}; one writer), then run the search's generations, each a
 * sweep of its candidates on the training workloads and seeds ({@link EvolveRounds}, {@code SweepJob}) into
 * {@code _staging/rounds/gen-NN/}, proposed by CMA-ES ({@link Cmaes}) from the earlier generations' fitness, until it
 * stops or the generations are done; then the baselines on the training split ({@code rounds/baselines/}) and the best
 * candidate with the baselines on the held-out split ({@code rounds/held-out/}); write the outputs
 * ({@link EvolveOutputs}, the report, the summary) and commit the folder ({@code _SUCCESS} last). A generation already
 * finished (a resumed search) is read back, not run, and CMA-ES replays it from its stored fitness: a resumed search
 * proposes, runs and reports what an uninterrupted one does.
 */
public final class EvolveJob {
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    static final String BASELINES_ROUND = "baselines";
    static final String HELD_OUT_ROUND = "held-out";

    private EvolveJob() {
    }

    /**
     * What the search did.
     *
     * @param spec            the search
     * @param dir             its output folder
     * @param alreadyComplete {@code --resume} found it complete and ran nothing ({@link #summary} is the stored one)
     * @param result          the conclusion (null when already complete)
     * @param cells           runs in the search (every round's cells)
     * @param cellsRun        of which this invocation ran
     * @param wallSeconds     this invocation's wall time
     * @param summary         the text printed on stdout (also {@code summary.txt})
     */
    public record Run(EvolveSpec spec, Path dir, boolean alreadyComplete, EvolveResult result, int cells, int cellsRun,
                      double wallSeconds, String summary, List<String> unfinished) {
    }

    /** Runs {@code spec} into {@code outDir} (null: {@code out/<name>/}); {@code command} is how it was asked for. */
    public static Run run(EvolveSpec spec, String command, Path outDir, RunnerChoice runner, SweepJob.OutputFlags flags,
                          PrintStream progress) throws IOException {
        long t0 = System.nanoTime();
        SweepJob.prepareRunner(runner);
        checkRunnable(spec);
        RoundsLayout layout = EvolveLayout.of(spec);
        return layout.locked(outDir, spec.name(), command + runner.flags(), flags, progress, "evolve", (dir, resume, lock) ->
                new Search(spec, layout, dir, runner, progress, command, resume).run(lock, flags, t0));
    }

    /**
     * A start point (every searched parameter at its start) or a baseline that cannot run on a workload of either split
     * is the file's own error, refused before anything runs, each problem once at its place in the evolve file: a
     * workload's at {@code train.workloads.<name>.<key>}, the template's at {@code policies.<kind>...} (a searched
     * parameter's start at {@code search.<kind>.<param>}), a baseline's at {@code baselines.<label>.<kind>...}, and the
     * base config's at {@code base.<key>}.
     */
    private static void checkRunnable(EvolveSpec spec) {
        double[] start = spec.params().stream().mapToDouble(Param::start).toArray();
        List<EvolveRounds.Entry> startPoint = List.of(EvolveRounds.candidate(spec, "start", start));
        List<EvolveRounds.Entry> baselines = baselineEntries(spec);
        Set<ConfigException.Problem> problems = new LinkedHashSet<>();
        for (Map.Entry<String, EvolveSpec.Split> split : List.of(Map.entry("train", spec.train()),
                Map.entry("held_out", spec.heldOut()))) {
            for (EvolveRounds.Refusal r : EvolveRounds.refusals(spec, startPoint, split.getValue())) {
                problems.add(inFile(spec, r, "policies", split.getKey()));
            }
            for (EvolveRounds.Refusal r : EvolveRounds.refusals(spec, baselines, split.getValue())) {
                problems.add(inFile(spec, r, "baselines." + r.label(), split.getKey()));
            }
        }
        if (!problems.isEmpty()) {
            throw new ConfigException(List.copyOf(problems));
        }
    }

    /** Refusal {@code r} at its place in the evolve file ({@link #checkRunnable}); {@code policiesAt} holds its bundle. */
    private static ConfigException.Problem inFile(EvolveSpec spec, EvolveRounds.Refusal r, String policiesAt,
                                                  String split) {
        String path = r.problem().path() == null ? "" : r.problem().path();
        String message = r.problem().message();
        if (path.equals("workload") || path.startsWith("workload.") || path.startsWith("workload[")) {
            return new ConfigException.Problem(split + ".workloads." + r.workload() + path.substring("workload".length()),
                    message);
        }
        for (PolicyKind<?> kind : PolicyKind.ALL) {
            String at = kind.configPathIn(spec.base());
            if (path.equals(at) || path.startsWith(at + ".")) {
                for (Param p : spec.params()) {
                    if (policiesAt.equals("policies") && p.kind().equals(kind.name())
                            && path.equals(at + ".params." + p.key())) {
                        return new ConfigException.Problem("search." + p.name(), message + " (at the start point, every"
                                + " searched parameter at its start)");
                    }
                }
                return new ConfigException.Problem(policiesAt + "." + kind.name() + path.substring(at.length()), message);
            }
        }
        return new ConfigException.Problem(path.isEmpty() ? "base" : "base." + path, message);
    }

    private static List<EvolveRounds.Entry> baselineEntries(EvolveSpec spec) {
        List<EvolveRounds.Entry> out = new ArrayList<>();
        spec.baselines().forEach((label, bundle) -> out.add(EvolveRounds.bundle(spec, label, bundle)));
        return out;
    }

    /** One invocation's search: its rounds run into the staging folder, counted. */
    private static final class Search {
        private final EvolveSpec spec;
        private final RoundsLayout layout;
        private final Path dir;
        private final RunnerChoice runner;
        private final PrintStream progress;
        private final String command;
        private final String resume;
        private final List<String> metrics;
        private Path staging;
        private int cells;
        private int cellsRun;
        /** The rounds' warnings printed so far: each once per search. */
        private final java.util.Set<String> warned = new java.util.HashSet<>();

        Search(EvolveSpec spec, RoundsLayout layout, Path dir, RunnerChoice runner, PrintStream progress, String command,
               String resume) {
            this.spec = spec;
            this.layout = layout;
            this.dir = dir;
            this.runner = runner;
            this.progress = progress;
            this.command = command;
            this.resume = resume;
            this.metrics = EvolveRounds.metrics(spec.fitness());
        }

        Run run(OutputLock lock, SweepJob.OutputFlags flags, long t0) throws IOException {
            OutputDir.Verdict verdict = OutputDir.inspect(dir, layout, flags.overwrite(), flags.resume());
            if (verdict.mode() == OutputDir.Mode.ALREADY_COMPLETE) {
                verdict.finishCommit();
                String stored = Files.readString(dir.resolve(EvolveOutputs.SUMMARY_TEXT), StandardCharsets.UTF_8);
                List<String> unfinished = new ArrayList<>();
                JSON.readTree(dir.resolve(EvolveOutputs.SUMMARY_JSON).toFile()).path("unfinished")
                        .forEach(u -> unfinished.add(u.asText()));
                return new Run(spec, dir, true, null, 0, 0, (System.nanoTime() - t0) / 1e9, stored, unfinished);
            }
            staging = verdict.staging();
            layout.stage(verdict, "search " + spec.name(), resume);
            try (InterruptGuard guard = InterruptGuard.install(progress, "evolve", dir, () -> RoundsLayout.finishedRounds(staging)
                            + " finished rounds, and the finished cells of the round that was running, are kept in "
                            + staging.resolve(RoundsLayout.ROUNDS), verdict.previousComplete(), resume, lock, false)) {
                List<Evaluated> all = generations();
                // the first of equal fitness (maxBy keeps the earlier): the earliest generation, the lowest index
                Evaluated best = all.stream().max(Comparator.comparingDouble(Evaluated::value)).orElseThrow();
                Map<String, EvolveRounds.Score> trainScores = new LinkedHashMap<>();
                trainScores.put(EvolveRounds.BEST, best.score());
                trainScores.putAll(measure(BASELINES_ROUND, baselineEntries(spec), spec.train()));
                List<EvolveRounds.Entry> heldOut = new ArrayList<>();
                heldOut.add(EvolveRounds.candidate(spec, EvolveRounds.BEST, best.x()));
                heldOut.addAll(baselineEntries(spec));
                Map<String, EvolveRounds.Score> heldOutScores = measure(HELD_OUT_ROUND, heldOut, spec.heldOut());
                EvolveResult result = new EvolveResult(all, best, trainScores, heldOutScores);
                double wall = (System.nanoTime() - t0) / 1e9;
                int generations = all.get(all.size() - 1).generation() + 1;
                String summary = EvolveSummary.text(spec, result, generations, cells, dir);
                List<String> fresh = new ArrayList<>(EvolveOutputs.write(staging, spec, result, metrics));
                Files.writeString(staging.resolve(EvolveOutputs.SUMMARY_TEXT), summary, StandardCharsets.UTF_8);
                fresh.add(EvolveOutputs.SUMMARY_TEXT);
                EvolveReport.write(staging.resolve(EvolveOutputs.REPORT), spec, result, summary,
                        Files.readString(staging.resolve(EvolveOutputs.BEST_POLICY), StandardCharsets.UTF_8));
                fresh.add(EvolveOutputs.REPORT);
                JSON.writeValue(staging.resolve(EvolveOutputs.SUMMARY_JSON).toFile(), stats(result, generations, wall));
                fresh.add(EvolveOutputs.SUMMARY_JSON);
                fresh.add(EvolveDefinition.FILE);
                fresh.addAll(RoundsLayout.roundFiles(staging));
                guard.committing(() -> OutputCommit.commit(staging, dir, fresh, verdict.ownedFiles(), "search",
                        EvolveDefinition.FILE));
                return new Run(spec, dir, false, result, cells, cellsRun, wall, summary, result.unfinished());
            }
        }

        /** Every generation, proposed by CMA-ES from the ones before and measured on the training split. */
        private List<Evaluated> generations() throws IOException {
            List<Evaluated> all = new ArrayList<>();
            List<double[]> values = new ArrayList<>();
            for (int g = 0; ; g++) {
                List<double[]> xs = Cmaes.next(spec, values);
                if (xs.isEmpty()) {
                    return all;
                }
                List<EvolveRounds.Entry> entries = new ArrayList<>();
                for (int i = 0; i < xs.size(); i++) {
                    entries.add(EvolveRounds.candidate(spec, Evaluated.label(g, i), xs.get(i)));
                }
                Map<String, String> reasons = new LinkedHashMap<>();
                Map<String, EvolveRounds.Score> scores = measure(String.format("gen-%02d", g), entries, spec.train(), reasons);
                double[] v = new double[xs.size()];
                for (int i = 0; i < xs.size(); i++) {
                    String label = entries.get(i).label();
                    Evaluated e = new Evaluated(g, i, label, xs.get(i), reasons.get(label), scores.get(label));
                    all.add(e);
                    v[i] = e.value();
                }
                values.add(v);
            }
        }

        private Map<String, EvolveRounds.Score> measure(String name, List<EvolveRounds.Entry> entries,
                                                        EvolveSpec.Split split) throws IOException {
            return measure(name, entries, split, new LinkedHashMap<>());
        }

        /**
         * Runs {@code entries} on {@code split} as round {@code name} (read back if it finished before), returning each
         * entry's score by label: a twin of another entry carries that one's; one that cannot run has none, and
         * {@code reasons} says why.
         */
        private Map<String, EvolveRounds.Score> measure(String name, List<EvolveRounds.Entry> entries,
                                                        EvolveSpec.Split split, Map<String, String> reasons)
                throws IOException {
            reasons.putAll(EvolveRounds.unrunnable(spec, entries, split));
            List<EvolveRounds.Entry> runnable = entries.stream().filter(e -> !reasons.containsKey(e.label())).toList();
            Map<String, EvolveRounds.Score> scores = new LinkedHashMap<>();
            if (!runnable.isEmpty()) {
                Path roundDir = staging.resolve(RoundsLayout.ROUNDS).resolve(name);
                SweepPlan plan = SweepPlan.prepare(EvolveRounds.spec(spec, spec.name() + "-" + name, runnable, split));
                plan.warnings().keySet().stream().filter(warned::add)
                        .forEach(w -> progress.println("servesim evolve: warning: " + w));
                cells += plan.cells().size();
                if (SweepJob.holdsResults(roundDir, plan)) { // a resumed search reads the rounds it had finished
                    OutputCommit.finishCut(roundDir);
                } else {
                    boolean interrupted = Files.isDirectory(roundDir.resolve(OutputDir.STAGING));
                    progress.printf("evolve %s: %s: %d policies x %d workloads x %d seeds%s%n", spec.name(), name,
                            runnable.size(), split.workloads().size(), split.seeds().size(),
                            interrupted ? "; resuming it: its finished cells are kept" : "");
                    SweepResult r = SweepJob.run(plan, roundDir, runner, new SweepJob.OutputFlags(false, interrupted),
                            progress, new SweepJob.Invocation(command + " (" + name + ")", resume, true));
                    cellsRun += (int) (r.completed() - r.resumed() + r.failed());
                }
                scores.putAll(EvolveRounds.read(roundDir, metrics));
            }
            reasons.forEach((label, why) -> {
                if (why.startsWith(EvolveRounds.SAME_AS)) {
                    scores.put(label, scores.get(why.substring(EvolveRounds.SAME_AS.length())));
                }
            });
            return scores;
        }

        private Map<String, Object> stats(EvolveResult result, int generations, double wall) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("search", spec.name());
            m.put("runner", runner.toString());
            m.put("parallelism", runner.effectiveParallelism());
            m.put("parameters", spec.params().stream().map(Param::name).toList());
            m.put("population", spec.population());
            m.put("generations", generations);
            m.put("candidates", result.all().size());
            m.put("cells", cells);
            m.put("cells_run", cellsRun);
            m.put("best", result.best().label());
            m.put("best_train_fitness", result.best().value());
            EvolveRounds.Score held = result.heldOut().get(EvolveRounds.BEST);
            m.put("best_held_out_fitness", held == null ? null : held.fitness());
            m.put("unfinished", result.unfinished());
            m.put("total_wall_s", wall);
            m.put("output_dir", dir.toString());
            return m;
        }
    }
}
