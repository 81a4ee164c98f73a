package io.servesim.plan;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.servesim.io.OutputLock;
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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The work of {@code servesim plan} and {@code servesim capacity}: check every candidate, check the output folder under
 * the rules a sweep's follows ({@link PlanLayout}: nothing servesim did not write is touched; {@code --resume},
 * {@code --overwrite}; one writer, {@link OutputLock}), then run the search's rounds, each a sweep of its probes
 * ({@link PlanRounds}, {@link SweepJob}) into {@code _staging/rounds/NN/}, until {@link PlanSearch} asks for none; write
 * the outputs ({@link PlanOutputs}, the report, the summary) beside them and commit the whole folder ({@code _SUCCESS}
 * last). A round already finished (a resumed plan) is read back, not run; an interrupted round is resumed, so an
 * interrupted plan loses only the cells that were running.
 */
public final class PlanJob {
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private PlanJob() {
    }

    /**
     * What the plan did.
     *
     * @param spec            the plan
     * @param dir             its output folder
     * @param alreadyComplete {@code --resume} found the plan complete and ran nothing ({@link #summary} is the stored one)
     * @param result          the conclusion (null when already complete)
     * @param results         every run's outcome (null when already complete)
     * @param rounds          rounds in the search
     * @param cells           runs in the search (every round's cells)
     * @param cellsRun        of which this invocation ran (the others were kept by an interrupted one)
     * @param wallSeconds     this invocation's wall time
     * @param summary         the text printed on stdout (also {@code summary.txt})
     */
    public record Run(PlanSpec spec, Path dir, boolean alreadyComplete, PlanResult result, Results results, int rounds,
                      int cells, int cellsRun, double wallSeconds, String summary) {
        /** Whether the plan recommends a candidate (on a completed plan found again: whether it wrote one). */
        public boolean recommends() {
            return alreadyComplete ? Files.exists(dir.resolve(PlanOutputs.RECOMMENDED)) : result.recommended() != null;
        }

        /**
         * Whether a capacity search found a rate of its grid that meets every SLO (on one found again: whether its summary
         * says none did).
         */
        public boolean meetsSomeRate() {
            return alreadyComplete ? !summary.contains(PlanSummary.NO_RATE_MET) : result.candidates().get(0).capacityRps() > 0;
        }
    }

    /**
     * Runs {@code spec} into {@code outDir} (null: {@code out/<name>/}). {@code command} is how it was asked for, after
     * the launcher's name ({@code plan sweeps/plan/x.yaml}), for the lock and the resume command; progress goes to
     * {@code progress}.
     */
    public static Run run(PlanSpec spec, String command, Path outDir, RunnerChoice runner, SweepJob.OutputFlags flags,
                          PrintStream progress) throws IOException {
        long t0 = System.nanoTime();
        SweepJob.prepareRunner(runner);
        Map<Integer, String> invalid = CandidateCheck.invalid(spec);
        RoundsLayout layout = PlanLayout.of(spec);
        return layout.locked(outDir, spec.name(), command + runner.flags(), flags, progress, noun(command), (dir, resume, lock) ->
                run(spec, invalid, layout, dir, lock, runner, flags, progress, command, resume, t0));
    }

    private static Run run(PlanSpec spec, Map<Integer, String> invalid, RoundsLayout layout, Path dir, OutputLock lock,
                           RunnerChoice runner, SweepJob.OutputFlags flags, PrintStream progress, String command,
                           String resume, long t0) throws IOException {
        OutputDir.Verdict verdict = OutputDir.inspect(dir, layout, flags.overwrite(), flags.resume());
        if (verdict.mode() == OutputDir.Mode.ALREADY_COMPLETE) {
            verdict.finishCommit();
            String stored = Files.readString(dir.resolve(PlanOutputs.SUMMARY_TEXT), StandardCharsets.UTF_8);
            return new Run(spec, dir, true, null, null, 0, 0, 0, (System.nanoTime() - t0) / 1e9, stored);
        }
        Path staging = verdict.staging();
        layout.stage(verdict, "plan " + spec.name(), resume);
        PlanSearch search = new PlanSearch(spec, invalid);
        Results results = new Results();
        int round = 0;
        int cells = 0;
        int cellsRun = 0;
        java.util.Set<String> warned = new java.util.HashSet<>(); // the rounds' warnings, each printed once per plan
        try (InterruptGuard guard = InterruptGuard.install(progress, noun(command), dir, () -> RoundsLayout.finishedRounds(staging)
                        + " finished rounds, and the finished cells of the round that was running, are kept in "
                        + staging.resolve(RoundsLayout.ROUNDS), verdict.previousComplete(), resume, lock, false)) {
            for (List<Probe> probes = search.next(results); !probes.isEmpty(); probes = search.next(results)) {
                round++;
                Path roundDir = staging.resolve(RoundsLayout.ROUNDS).resolve(String.format("%02d", round));
                SweepPlan plan = SweepPlan.prepare(PlanRounds.spec(spec, spec.name() + "-round-" + String.format("%02d", round),
                        probes));
                plan.warnings().keySet().stream().filter(warned::add)
                        .forEach(w -> progress.println("servesim " + noun(command) + ": warning: " + w));
                cells += probes.size() * spec.seeds().size();
                if (SweepJob.holdsResults(roundDir, plan)) { // a resumed plan reads the rounds it had finished
                    OutputCommit.finishCut(roundDir);
                } else {
                    boolean interrupted = Files.isDirectory(roundDir.resolve(OutputDir.STAGING));
                    progress.printf("%s %s: round %d: %s%s%n", noun(command), spec.name(), round, describe(probes),
                            interrupted ? "; resuming it: its finished cells are kept" : "");
                    SweepResult r = SweepJob.run(plan, roundDir, runner, new SweepJob.OutputFlags(false, interrupted), progress,
                            new SweepJob.Invocation(command + " (round " + round + ")", resume, true));
                    cellsRun += (int) (r.completed() - r.resumed() + r.failed());
                }
                PlanRounds.read(roundDir, spec, results);
            }
            PlanResult result = search.conclude(results);
            double wall = (System.nanoTime() - t0) / 1e9;
            String summary = PlanSummary.text(spec, result, results, invalid.size(), round, cells, dir);
            List<String> fresh = new ArrayList<>(PlanOutputs.write(staging, dir, spec, result, results));
            Files.writeString(staging.resolve(PlanOutputs.SUMMARY_TEXT), summary, StandardCharsets.UTF_8);
            fresh.add(PlanOutputs.SUMMARY_TEXT);
            List<String[]> shown = new ArrayList<>();
            for (String f : List.of(PlanOutputs.SUMMARY_TEXT, PlanOutputs.RECOMMENDED, VllmCommand.FILE, SglangCommand.FILE)) {
                if (fresh.contains(f)) {
                    shown.add(new String[] {f, Files.readString(staging.resolve(f), StandardCharsets.UTF_8)});
                }
            }
            PlanReport.write(staging.resolve(PlanOutputs.REPORT), spec, result, shown);
            fresh.add(PlanOutputs.REPORT);
            JSON.writeValue(staging.resolve(PlanOutputs.SUMMARY_JSON).toFile(), stats(spec, runner, dir, round, cells, cellsRun,
                    invalid.size(), result, wall));
            fresh.add(PlanOutputs.SUMMARY_JSON);
            fresh.add(PlanDefinition.FILE);
            fresh.addAll(RoundsLayout.roundFiles(staging));
            guard.committing(() -> OutputCommit.commit(staging, dir, fresh, verdict.ownedFiles(), "plan",
                    PlanDefinition.FILE));
            return new Run(spec, dir, false, result, results, round, cells, cellsRun, wall, summary);
        }
    }

    /** {@code plan}, {@code capacity}: the command's name, first in {@code command}. */
    private static String noun(String command) {
        return command.split(" ", 2)[0];
    }

    /** {@code 24 cells: 20 screen, 4 capacity}. */
    private static String describe(List<Probe> probes) {
        Map<Stage, Integer> byStage = new LinkedHashMap<>();
        probes.forEach(p -> byStage.merge(p.stage(), 1, Integer::sum));
        List<String> parts = new ArrayList<>();
        byStage.forEach((s, n) -> parts.add(n + " " + s.label()));
        return probes.size() + " cells (" + String.join(", ", parts) + ")";
    }

    private static Map<String, Object> stats(PlanSpec spec, RunnerChoice runner, Path dir, int rounds, int cells, int cellsRun,
                                             int invalid, PlanResult result, double wall) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("plan", spec.name());
        m.put("runner", runner.toString());
        m.put("parallelism", runner.effectiveParallelism());
        m.put("candidates", spec.candidates().size());
        m.put("candidates_invalid", invalid);
        Map<String, Integer> byStatus = new LinkedHashMap<>();
        result.candidates().forEach(v -> byStatus.merge(v.status(), 1, Integer::sum));
        m.put("candidates_by_status", byStatus);
        m.put("rounds", rounds);
        m.put("cells", cells);
        m.put("cells_run", cellsRun);
        m.put("recommended", result.recommended() == null ? null : result.recommended().id());
        m.put("total_wall_s", wall);
        m.put("output_dir", dir.toString());
        return m;
    }
}
