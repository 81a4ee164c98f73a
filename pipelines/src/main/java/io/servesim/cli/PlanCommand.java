package io.servesim.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.servesim.config.ConfigException;
import io.servesim.exit.ErrorReport;
import io.servesim.exit.ExitCode;
import io.servesim.plan.PlanFile;
import io.servesim.plan.PlanJob;
import io.servesim.plan.PlanSpec;
import io.servesim.sweep.RunnerChoice;
import io.servesim.sweep.ShellWord;
import io.servesim.sweep.SweepJob;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code servesim plan PLAN.yaml}: the cheapest deployment of a space of GPUs, TP degrees, engine settings and fleets
 * that serves a target rate within every SLO, and the cost/capacity frontier ({@link PlanJob}); a summary on stdout,
 * the rounds' rows, candidates, frontier, recommended config, vLLM commands and report under {@code out/<name>/}.
 */
@Command(name = "plan", mixinStandardHelpOptions = true,
        description = "Capacity planning: the cheapest deployment (GPU, TP, replicas, engine settings) serving a target rate"
                + " within SLOs, searched in rounds of sweeps; results under out/<plan name>/.")
public final class PlanCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "PLAN", description = "plan YAML (e.g. sweeps/plan/llama8b-chat.yaml)")
    Path file;

    @Mixin
    RunnerOptions runnerOptions = new RunnerOptions();

    @Override
    public Integer call() {
        ErrorReport errors = Main.errors(spec);
        try {
            return run(file, runnerOptions.output, runnerOptions.choice(), runnerOptions.flags(), System.out, System.err, errors);
        } catch (ConfigException e) {
            return errors.report(e);
        }
    }

    /** Binds and runs the plan, printing its summary on {@code out} and its progress on {@code err}; returns the exit code. */
    static int run(Path file, Path output, RunnerChoice runner, SweepJob.OutputFlags flags, PrintStream out, PrintStream err,
                   ErrorReport errors) {
        PlanSpec plan;
        try {
            plan = PlanFile.load(file);
        } catch (ConfigException e) {
            return errors.report("invalid plan " + file, e);
        }
        replacedByThePlan(plan).ifPresent(note -> err.println("servesim plan: note: " + note));
        return print(() -> PlanJob.run(plan, "plan " + ShellWord.quote(file.toString()), output, runner, flags, err), "plan", "plan " + file, out, err,
                errors);
    }

    /**
     * What of the base's workload the plan replaces, if the base gives it: every run's {@code aggregate_rate} is the
     * target rate or a capacity probe's, its {@code num_requests} a budget of the search (a base reused from a run
     * config often carries both).
     */
    static Optional<String> replacedByThePlan(PlanSpec plan) {
        JsonNode w = plan.base().path("workload");
        List<String> given = new ArrayList<>();
        for (String key : List.of("aggregate_rate", "num_requests")) {
            if (w.hasNonNull(key)) {
                given.add("base.workload." + key + " (" + w.get(key).asText() + ")");
            }
        }
        return given.isEmpty() ? Optional.empty() : Optional.of(String.join(" and ", given)
                + (given.size() == 1 ? " is" : " are") + " replaced in every run: the rate is target_rate_rps ("
                + plan.targetRps() + ") or a capacity probe's, the requests a budget of search.budgets "
                + plan.search().budgets());
    }

    /** A plan or capacity search to run. */
    interface Job {
        PlanJob.Run run() throws IOException;
    }

    /**
     * Runs {@code job} and prints its summary on {@code out}; returns the exit code. A config problem found while it
     * runs is reported as one of {@code what} ("plan FILE", "capacity search").
     */
    static int print(Job job, String command, String what, PrintStream out, PrintStream err, ErrorReport errors) {
        PlanJob.Run r;
        try {
            r = job.run();
        } catch (ConfigException e) {
            return errors.report("invalid " + what, e);
        } catch (IOException | RuntimeException e) {
            return errors.report(e);
        }
        if (r.alreadyComplete()) {
            err.println("servesim " + command + ": nothing to resume: " + r.dir() + " already holds this " + command
                    + "'s complete results; they said:");
        } else {
            err.printf("%s %s: %d rounds, %d runs (%d run now) in %.1f s%n", command, r.spec().name(), r.rounds(), r.cells(),
                    r.cellsRun(), r.wallSeconds());
        }
        out.print(r.summary());
        if (r.spec().capacityOnly() && !r.meetsSomeRate()) {
            err.println("servesim " + command + ": no rate of the grid meets every objective (exit " + ExitCode.NO_ANSWER
                    + "); what the lowest rate missed is above, every run in " + r.dir());
            return ExitCode.NO_ANSWER;
        }
        if (!r.spec().capacityOnly() && !r.recommends()) {
            err.println("servesim " + command + ": no candidate meets every objective (exit " + ExitCode.NO_ANSWER
                    + "); the closest and what it misses are above, every candidate's runs in " + r.dir());
            return ExitCode.NO_ANSWER;
        }
        return ExitCode.OK;
    }
}
