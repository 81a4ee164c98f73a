package io.servesim.cli;

import io.servesim.cli.Main;
import io.servesim.config.ConfigException;
import io.servesim.exit.ErrorReport;
import io.servesim.sweep.RunnerChoice;
import io.servesim.sweep.SweepJob;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code servesim sweep FILE}: run a sweep of simulations as a Beam pipeline into Parquet datasets. */
@Command(name = "sweep", mixinStandardHelpOptions = true,
        description = "Run a sweep (grid of configs x seeds) as a Beam pipeline; Parquet datasets under out/<sweep name>/.")
public final class SweepCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "FILE", description = "sweep YAML (e.g. sweeps/quickstart.yaml)")
    Path file;

    @Option(names = "--output", paramLabel = "DIR", description = "output directory (default out/<sweep name>/)")
    Path output;

    @Option(names = "--overwrite", description = "write into an output directory that holds another sweep's results or files"
            + " of yours, or discard an interrupted sweep there; servesim still deletes only files its own manifest lists")
    boolean overwrite;

    @Option(names = "--resume", description = "finish the interrupted sweep in the output directory: run only the cells"
            + " without rows yet (the result is row-identical to an uninterrupted sweep)")
    boolean resume;

    @Option(names = "--runner", description = "direct (embedded, default) or flink")
    RunnerChoice.Runner runner = RunnerChoice.Runner.direct;

    @Option(names = "--flink-master", description = "with --runner flink: [local] (embedded mini cluster, default) or host:port of a Flink 1.19 session cluster")
    String flinkMaster;

    @Option(names = "--flink-jar", paramLabel = "JAR", description = "with a remote --flink-master: the shaded jar to stage (mvn -Pflink-jar package -> pipelines/target/servesim-flink.jar)")
    Path flinkJar;

    @Option(names = "--parallelism", description = "workers: DirectRunner target parallelism or Flink parallelism (default: the runner's)")
    Integer parallelism;

    @Override
    public Integer call() {
        ErrorReport errors = Main.errors(spec);
        RunnerChoice choice;
        try {
            choice = RunnerChoice.of(runner, parallelism, flinkMaster, flinkJar);
        } catch (ConfigException e) {
            return errors.report(e);
        }
        return SweepJob.run(file, output, choice, new SweepJob.OutputFlags(overwrite, resume), System.out, System.err, errors);
    }
}
