package io.servesim.sweep;

import io.servesim.config.ConfigException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.beam.runners.direct.DirectOptions;
import org.apache.beam.runners.direct.DirectRunner;
import org.apache.beam.runners.flink.FlinkPipelineOptions;
import org.apache.beam.runners.flink.FlinkRunner;
import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.beam.sdk.options.PipelineOptionsFactory;

/**
 * Where a sweep runs, validated into Beam pipeline options once (a flag that does not apply to the
 * chosen runner is an error, never ignored).
 *
 * <ul>
 *   <li>{@code direct}: Beam's DirectRunner in this JVM, its cells run on {@code parallelism}
 *       threads of {@link RunCellFn} ({@link #cellThreads()}).</li>
 *   <li>{@code flink} with master {@code [local]}: an embedded Flink mini cluster in this JVM, its
 *       memory sized to the parallelism ({@link FlinkLocalConf}) unless {@code FLINK_CONF_DIR} is set.</li>
 *   <li>{@code flink} with master {@code host:port}: a Flink 1.19 session cluster (REST port); the
 *       shaded application jar ({@code mvn -Pflink-jar package}) is staged to it.</li>
 * </ul>
 *
 * @param runner      direct or flink
 * @param parallelism workers (null = the runner's default)
 * @param flinkMaster Flink master (null unless flink)
 * @param flinkJar    jar staged to a remote Flink cluster (null unless remote)
 */
public record RunnerChoice(Runner runner, Integer parallelism, String flinkMaster, Path flinkJar) {
    /** Beam runners a sweep can use. */
    public enum Runner { direct, flink }

    /** The embedded Flink mini cluster. */
    public static final String LOCAL = "[local]";

    /** Validates the flag combination; problems name the flag. */
    public static RunnerChoice of(Runner runner, Integer parallelism, String flinkMaster, Path flinkJar) {
        if (parallelism != null && parallelism < 1) {
            throw new ConfigException("--parallelism", "must be >= 1, got " + parallelism);
        }
        if (runner == Runner.direct) {
            if (flinkMaster != null || flinkJar != null) {
                throw new ConfigException(flinkMaster != null ? "--flink-master" : "--flink-jar", "only applies to --runner flink");
            }
            return new RunnerChoice(runner, parallelism, null, null);
        }
        String master = flinkMaster == null ? LOCAL : flinkMaster;
        if (LOCAL.equals(master)) {
            if (flinkJar != null) {
                throw new ConfigException("--flink-jar", "only applies to a remote --flink-master host:port");
            }
            return new RunnerChoice(runner, parallelism, master, null);
        }
        if (!master.matches("[^:\\s]+:\\d+")) {
            throw new ConfigException("--flink-master", "must be [local] or host:port of a Flink REST endpoint, got '" + master + "'");
        }
        if (flinkJar == null || !Files.isReadable(flinkJar)) {
            throw new ConfigException("--flink-jar", "a remote Flink master needs the shaded application jar: build it with"
                    + " 'mvn -B -ntp -Pflink-jar -DskipTests package' and pass pipelines/target/servesim-flink.jar"
                    + (flinkJar == null ? "" : "; cannot read " + flinkJar));
        }
        return new RunnerChoice(runner, parallelism, master, flinkJar.toAbsolutePath());
    }

    /** True when cells run in this JVM (so the launcher can count them as they finish). */
    public boolean inProcess() {
        return flinkJar == null;
    }

    /**
     * Whether the datasets are written one file per dataset per bundle of cells by
     * {@link DatasetFileFn}: the DirectRunner, which never retries a bundle, and whose output the
     * staging folder already makes all-or-nothing. Flink writes through {@code FileIO}, whose
     * finalization keeps one attempt's files when it retries, with the runner's sharding: each
     * worker writes the rows of its own cells as they come, with no shuffle.
     */
    public boolean writesBundleFiles() {
        return runner == Runner.direct;
    }

    /**
     * Whether the cells reach {@link RunCellFn} in a few large bundles, whose cells it runs on its
     * own {@link #cellThreads()} ({@link SweepPipeline#inBundles}): the DirectRunner ({@link #options}
     * says why). Flink spreads them instead, one random key per cell: each key's cells stream
     * through the worker owning it, and many keys balance the workers.
     */
    public boolean cellsInBundles() {
        return runner == Runner.direct;
    }

    /**
     * Threads {@link RunCellFn} runs a bundle's cells on: on the DirectRunner the parallelism
     * (the flag, else one per core); 1 on Flink, whose workers are its parallelism.
     */
    public int cellThreads() {
        return runner == Runner.flink ? 1 : effectiveParallelism();
    }

    /**
     * Workers the runner uses: the flag, else the runner's default (DirectRunner: one cell thread
     * per core; embedded Flink: one slot per core); null for a remote cluster's default.
     */
    public Integer effectiveParallelism() {
        if (parallelism != null) {
            return parallelism;
        }
        return runner == Runner.direct || LOCAL.equals(flinkMaster) ? Runtime.getRuntime().availableProcessors() : null;
    }

    /**
     * Starts initializing Beam's {@code PipelineOptionsFactory} on a daemon thread, so that its
     * ~0.7 s of start-up (finding every options registrar on the classpath and checking each
     * options interface by reflection) overlaps the sweep's own loading and validation of cells
     * instead of following it. {@link #options} then finds the class ready (or waits for it: the
     * JVM runs a class initializer once, and other threads block until it is done).
     */
    static void preloadBeam() {
        Thread t = new Thread(() -> PipelineOptionsFactory.as(PipelineOptions.class), "servesim-beam-preload");
        t.setDaemon(true);
        t.start();
    }

    /** Beam options for this choice. */
    public PipelineOptions options(String jobName) {
        if (runner == Runner.direct) {
            DirectOptions o = PipelineOptionsFactory.as(DirectOptions.class);
            o.setRunner(DirectRunner.class);
            // Model checks that encode every output again; RunCellFn builds fresh rows and the
            // Flink runs (which encode everything) check encodability in the tests.
            o.setEnforceImmutability(false);
            o.setEnforceEncodability(false);
            // One runner thread; the cells run in parallel on RunCellFn's own threads instead. The
            // DirectRunner 2.62's driver (QuiescenceDriver) resubmits itself to the runner's thread
            // pool without pause whenever a thread is free, so at the default target parallelism
            // (max(cores, 3)) it spun on a core beside the cells: the quickstart sweep took 18.8 s of
            // CPU for the 9.6 s its cells take in a serial loop, and --parallelism 2 took longer
            // than 1. With one thread the driver waits in the queue behind the bundle that runs.
            o.setTargetParallelism(1);
            o.setJobName(jobName);
            return o;
        }
        FlinkPipelineOptions o = PipelineOptionsFactory.as(FlinkPipelineOptions.class);
        o.setRunner(FlinkRunner.class);
        o.setFlinkMaster(flinkMaster);
        // Rows are never mutated after output, so chained operators may hand them on without a
        // coder round trip (the runner otherwise deep-copies every batch of request rows).
        o.setFasterCopy(true);
        if (parallelism != null) {
            o.setParallelism(parallelism);
        }
        if (flinkJar != null) {
            o.setFilesToStage(List.of(flinkJar.toString()));
        } else {
            Path conf = FlinkLocalConf.materialize(effectiveParallelism(), System.getenv());
            if (conf != null) {
                o.setFlinkConfDir(conf.toString());
            }
        }
        o.setJobName(jobName);
        return o;
    }

    /**
     * The flags that choose this runner on a command line, each after a space (none for the DirectRunner at its default
     * parallelism): what a resume command and an output folder's lock repeat, so resuming runs where the job ran.
     */
    public String flags() {
        StringBuilder b = new StringBuilder();
        if (runner == Runner.flink) {
            b.append(" --runner flink");
            if (!LOCAL.equals(flinkMaster)) {
                b.append(" --flink-master ").append(ShellWord.quote(flinkMaster));
            }
            if (flinkJar != null) {
                b.append(" --flink-jar ").append(ShellWord.quote(flinkJar.toString()));
            }
        }
        if (parallelism != null) {
            b.append(" --parallelism ").append(parallelism);
        }
        return b.toString();
    }

    @Override
    public String toString() {
        return runner == Runner.direct ? "direct" : "flink " + flinkMaster;
    }
}
