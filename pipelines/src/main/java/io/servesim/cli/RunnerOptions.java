package io.servesim.cli;

import io.servesim.sweep.RunnerChoice;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * Where the cells of a sweep, a plan or a capacity search run ({@link RunnerChoice}), and where their output goes under
 * the rules every sweep folder follows: the flags of {@code sweep}, {@code plan} and {@code capacity}.
 */
public final class RunnerOptions {
    @Option(names = "--output", paramLabel = "DIR", description = "output directory (default out/<name>/)")
    Path output;

    @Option(names = "--overwrite", description = "write into an output directory that holds other results or files"
            + " of yours, or discard an interrupted run there; servesim still deletes only files its own manifest lists")
    boolean overwrite;

    @Option(names = "--resume", description = "finish the interrupted run in the output directory: run only the cells"
            + " without rows yet (the result is row-identical to an uninterrupted run)")
    boolean resume;

    @Option(names = "--runner", description = "direct (embedded, default) or flink")
    RunnerChoice.Runner runner = RunnerChoice.Runner.direct;

    @Option(names = "--flink-master", description = "with --runner flink: [local] (embedded mini cluster, default) or host:port of a Flink 1.19 session cluster")
    String flinkMaster;

    @Option(names = "--flink-jar", paramLabel = "JAR", description = "with a remote --flink-master: the shaded jar to stage (mvn -Pflink-jar package -> pipelines/target/servesim-flink.jar)")
    Path flinkJar;

    @Option(names = "--parallelism", description = "workers: DirectRunner cell threads (default: one per core) or Flink parallelism (default: the runner's)")
    Integer parallelism;

    /** The runner the flags choose, validated ({@link io.servesim.config.ConfigException} naming a bad flag). */
    RunnerChoice choice() {
        return RunnerChoice.of(runner, parallelism, flinkMaster, flinkJar);
    }

    /** {@code --overwrite} and {@code --resume}. */
    io.servesim.sweep.SweepJob.OutputFlags flags() {
        return new io.servesim.sweep.SweepJob.OutputFlags(overwrite, resume);
    }
}
