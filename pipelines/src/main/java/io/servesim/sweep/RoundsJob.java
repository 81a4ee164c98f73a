package io.servesim.sweep;

import io.servesim.exit.UsageException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Optional;
import java.util.function.Function;

/**
 * The output folder of a job run as rounds of sweeps (a capacity plan, a policy search), known by the definition file
 * its job writes there ({@code _PLAN.yaml}, {@code _EVOLVE.yaml}; while it runs, or once interrupted, in its
 * {@code _staging/}). It is not a sweep's output: its page is its own {@code report.html}, which the job writes; each of
 * its rounds is a sweep's output folder, which {@code servesim report} draws, and {@code servesim compare} compares, into
 * files outside the job's folder. That folder holds only the files its job lists: the job would refuse to run into it
 * again past a page of the report's or a {@code compare/} in its {@code rounds/} (even with {@code --overwrite}, as a
 * sweep refuses a file in its dataset folders), and would not replace one it did not write. The plan and evolve jobs
 * live above the sweep layer; this knows their folders only by their definition files.
 *
 * @param dir  the job's output folder
 * @param kind which job wrote it
 */
public record RoundsJob(Path dir, Kind kind) {
    /** The jobs run as rounds of sweeps. */
    public enum Kind {
        PLAN("_PLAN.yaml", "capacity plan", "plan", "plan", "NN"),
        EVOLVE("_EVOLVE.yaml", "policy search", "search", "evolve", "gen-NN");

        private final String definition;
        private final String noun;
        private final String shortNoun;
        private final String command;
        private final String round;

        /**
         * A job whose folder holds {@code definition}, called a {@code noun} ({@code shortNoun} when named again),
         * run by {@code servesim command}, whose rounds are named as {@code round}.
         */
        Kind(String definition, String noun, String shortNoun, String command, String round) {
            this.definition = definition;
            this.noun = noun;
            this.shortNoun = shortNoun;
            this.command = command;
            this.round = round;
        }
    }

    /** What the job is called ("capacity plan", "policy search"). */
    public String noun() {
        return kind.noun;
    }

    /** The job whose output folder is {@code dir} itself, if it is one (finished, running or interrupted). */
    public static Optional<RoundsJob> at(Path dir) {
        Path abs = dir.toAbsolutePath().normalize();
        return Arrays.stream(Kind.values()).filter(k -> Files.isRegularFile(abs.resolve(k.definition))
                || Files.isRegularFile(abs.resolve(OutputDir.STAGING).resolve(k.definition)))
                .findFirst().map(k -> new RoundsJob(abs, k));
    }

    /**
     * The innermost job output folder that holds {@code path} (a file to write), if any; a path in a job's staging folder
     * lies in the job's output folder.
     */
    public static Optional<RoundsJob> around(Path path) {
        for (Path d = path.toAbsolutePath().normalize().getParent(); d != null; d = d.getParent()) {
            Optional<RoundsJob> job = d.endsWith(OutputDir.STAGING) ? Optional.empty() : at(d);
            if (job.isPresent()) {
                return job;
            }
        }
        return Optional.empty();
    }

    /**
     * Refuses {@code dir}, the command's {@code OUT_DIR}, when it is a job's output folder rather than a sweep's: the
     * message names the job's own page and how to draw one of its rounds.
     */
    public static void refuseAsOutDir(Path dir) {
        at(dir).ifPresent(job -> {
            Kind k = job.kind();
            throw new UsageException("OUT_DIR " + dir + ": a " + k.noun + "'s output, whose page is its report.html (servesim "
                    + k.command + " writes it); each of its rounds is a sweep's output: servesim report OUT_DIR/rounds/"
                    + k.round + " --out FILE draws one (outside the " + k.shortNoun + "'s folder, which holds only files the "
                    + k.shortNoun + " lists)");
        });
    }

    /**
     * Refuses {@code target}, a file a command would write (named by {@code flag}), when it lies inside a job's output
     * folder: the message gives {@code advice} (write what outside it) and {@code suggest} of the job's folder as an
     * example.
     */
    public static void refuseInside(String flag, Path target, String advice, Function<Path, String> suggest) {
        around(target).ifPresent(job -> {
            Kind k = job.kind();
            throw new UsageException(flag + " " + target + ": inside " + job.dir() + ", the output folder of a " + k.noun
                    + " (servesim " + k.command + "), which holds only files the " + k.shortNoun + " lists so that it can"
                    + " run into it again; " + advice + ", e.g. " + suggest.apply(job.dir()));
        });
    }
}
