package io.servesim;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The layering of both modules, as README's "Architecture" section draws it, checked on the
 * compiled classes (simcore's and pipelines'; tests excluded). A package tree is one concept
 * ({@code policy.routing} belongs to {@code policy}); concepts form no cycle, and each may use only
 * the ones below it:
 * <pre>
 *   leaves   config (errors, YAML nodes)  rng  decisions  kernel (event queue)
 *   slo      -> config
 *   latency  -> config
 *   engine   -> kernel, latency, config, rng           (declares the SchedulingPolicy it uses)
 *   cluster  -> engine, decisions, ...                 (declares routing/admission/priority policies)
 *   disagg   -> cluster, engine, latency, kernel, config  (P/D pools, decider, KV links, ownership)
 *   usercode -> config                                 (Java source compiled, checked and loaded at load time;
 *                                                        its watchdog is simcore's one thread besides the run's)
 *   policy   -> cluster, engine, slo, config, usercode (implementations + registries; policy.api, the public
 *                                                        policy interface a code policy implements, is plain Java)
 *   metrics  -> cluster, engine, latency, slo, config
 *   workload -> engine, metrics, slo, config, rng
 *   run      -> all of the above                       (config loading, RunPlan, the run loop)
 *   fidelity -> run                                    (replay of real runs, calibration)
 *   ---- pipelines ----
 *   exit (exit codes, error reporter) <- io (Parquet/CSV rows, output files) <- sweep <- evaluate, compare <- report <- plan, evolve <- cli
 * </pre>
 * The kernel never sees Beam, Avro, Parquet, Hadoop or picocli; only {@code cli} sees picocli.
 */
class ArchitectureTest {
    private static JavaClasses classes;

    @BeforeAll
    static void importClasses() {
        // main code only: not this module's test classes, nor simcore's, which reach the classpath as its test-jar
        classes = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .withImportOption(location -> !location.contains("-tests.jar"))
                .importPackages("io.servesim");
    }

    @Test
    void noCyclesBetweenConcepts() {
        slices().matching("io.servesim.(*)..").should().beFreeOfCycles().check(classes);
    }

    @Test
    void kernelLayers() {
        layeredArchitecture().consideringOnlyDependenciesInLayers()
                .layer("config").definedBy("io.servesim.config")
                .layer("rng").definedBy("io.servesim.rng")
                .layer("slo").definedBy("io.servesim.slo")
                .layer("decisions").definedBy("io.servesim.decisions")
                .layer("kernel").definedBy("io.servesim.kernel")
                .layer("latency").definedBy("io.servesim.latency")
                .layer("engine").definedBy("io.servesim.engine")
                .layer("cluster").definedBy("io.servesim.cluster")
                .layer("disagg").definedBy("io.servesim.disagg")
                .layer("usercode").definedBy("io.servesim.usercode")
                .layer("policy").definedBy("io.servesim.policy..")
                .layer("metrics").definedBy("io.servesim.metrics")
                .layer("workload").definedBy("io.servesim.workload..")
                .layer("run").definedBy("io.servesim.run")
                .layer("fidelity").definedBy("io.servesim.fidelity")
                .layer("pipelines").definedBy("io.servesim.cli..", "io.servesim.sweep..", "io.servesim.io..",
                        "io.servesim.exit..", "io.servesim.evaluate..", "io.servesim.compare..",
                        "io.servesim.report..", "io.servesim.plan..")
                .whereLayer("pipelines").mayNotBeAccessedByAnyLayer()
                .whereLayer("fidelity").mayOnlyBeAccessedByLayers("pipelines")
                .whereLayer("run").mayOnlyBeAccessedByLayers("fidelity", "pipelines")
                .whereLayer("workload").mayOnlyBeAccessedByLayers("run", "fidelity", "pipelines")
                .whereLayer("metrics").mayOnlyBeAccessedByLayers("workload", "run", "fidelity", "pipelines")
                .whereLayer("policy").mayOnlyBeAccessedByLayers("run", "fidelity", "pipelines")
                .whereLayer("usercode").mayOnlyBeAccessedByLayers("policy")
                .whereLayer("disagg").mayOnlyBeAccessedByLayers("run", "fidelity", "pipelines")
                .whereLayer("cluster").mayOnlyBeAccessedByLayers("policy", "disagg", "metrics", "run", "fidelity", "pipelines")
                .whereLayer("engine").mayOnlyBeAccessedByLayers("cluster", "disagg", "policy", "metrics", "workload", "run",
                        "fidelity", "pipelines")
                .whereLayer("kernel").mayOnlyBeAccessedByLayers("engine", "cluster", "disagg", "run")
                .whereLayer("latency").mayOnlyBeAccessedByLayers("engine", "cluster", "disagg", "metrics", "run", "fidelity",
                        "pipelines")
                .check(classes);
    }

    @Test
    void leavesDependOnNoOtherServesimPackage() {
        for (String leaf : new String[] {"config", "rng", "decisions", "kernel"}) {
            String pkg = "io.servesim." + leaf;
            noClasses().that().resideInAPackage(pkg)
                    .should().dependOnClassesThat(resideInAPackage("io.servesim..").and(not(resideInAPackage(pkg))))
                    .check(classes);
        }
    }

    /**
     * User code's compiler and loader are generic (any API, any interface): of servesim they know only the config
     * errors they report. The public policy interface a code policy compiles against is plain Java, so the compiler's
     * class path needs nothing of servesim but it.
     */
    @Test
    void userCodeSeesOnlyItsApi() {
        noClasses().that().resideInAPackage("io.servesim.usercode")
                .should().dependOnClassesThat(resideInAPackage("io.servesim..")
                        .and(not(resideInAnyPackage("io.servesim.usercode", "io.servesim.config"))))
                .check(classes);
        com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes().that().resideInAPackage("io.servesim.policy.api")
                .should().onlyDependOnClassesThat().resideInAnyPackage("io.servesim.policy.api", "java.lang..", "java.util..")
                .check(classes);
    }

    @Test
    void theKernelIsPlainJava() {
        noClasses().that().resideInAnyPackage("io.servesim.config", "io.servesim.rng", "io.servesim.slo",
                        "io.servesim.decisions", "io.servesim.kernel", "io.servesim.latency", "io.servesim.engine",
                        "io.servesim.cluster", "io.servesim.disagg", "io.servesim.policy..", "io.servesim.usercode",
                        "io.servesim.metrics", "io.servesim.workload..", "io.servesim.run", "io.servesim.fidelity")
                .should().dependOnClassesThat().resideInAnyPackage("org.apache.beam..", "org.apache.avro..",
                        "org.apache.parquet..", "org.apache.hadoop..", "picocli..", "org.duckdb..")
                .check(classes);
    }

    @Test
    void theCommandLineIsTheTop() {
        noClasses().that().resideOutsideOfPackage("io.servesim.cli")
                .should().dependOnClassesThat().resideInAPackage("io.servesim.cli")
                .check(classes);
        // the error reporter knows simcore's error types, nothing else of the application
        noClasses().that().resideInAPackage("io.servesim.exit")
                .should().dependOnClassesThat().resideInAnyPackage("io.servesim.sweep..", "io.servesim.io..",
                        "io.servesim.evaluate..", "io.servesim.compare..", "io.servesim.report..",
                        "io.servesim.plan..")
                .check(classes);
    }

    @Test
    void reportsAndSweepsKnowNothingOfPlans() {
        // a plan is rounds of sweeps drawn on the report's page: it uses both, neither uses it
        noClasses().that().resideInAnyPackage("io.servesim.sweep..", "io.servesim.report..")
                .should().dependOnClassesThat().resideInAPackage("io.servesim.plan..")
                .check(classes);
    }

    @Test
    void onlyTheCommandLineSeesPicocli() {
        noClasses().that().resideOutsideOfPackage("io.servesim.cli")
                .should().dependOnClassesThat().resideInAPackage("picocli..")
                .check(classes);
    }

    /**
     * The application's own layers, as the Javadoc above draws them: the error reporter at the bottom, then the row and
     * file writers, the sweeps, what runs on sweeps (candidate evaluation, ranking against measurements), the report
     * pages, what runs rounds of sweeps (capacity plans, policy search), and the command line on top.
     */
    @Test
    void pipelinesLayers() {
        layeredArchitecture().consideringOnlyDependenciesInLayers()
                .layer("exit").definedBy("io.servesim.exit")
                .layer("io").definedBy("io.servesim.io")
                .layer("sweep").definedBy("io.servesim.sweep")
                .layer("evaluate").definedBy("io.servesim.evaluate")
                .layer("compare").definedBy("io.servesim.compare")
                .layer("report").definedBy("io.servesim.report")
                .layer("plan").definedBy("io.servesim.plan")
                .layer("evolve").definedBy("io.servesim.evolve")
                .layer("cli").definedBy("io.servesim.cli")
                .whereLayer("cli").mayNotBeAccessedByAnyLayer()
                .whereLayer("plan").mayOnlyBeAccessedByLayers("cli")
                .whereLayer("evolve").mayOnlyBeAccessedByLayers("cli")
                .whereLayer("report").mayOnlyBeAccessedByLayers("plan", "evolve", "cli")
                .whereLayer("compare").mayOnlyBeAccessedByLayers("report", "plan", "cli")
                .whereLayer("evaluate").mayOnlyBeAccessedByLayers("plan", "cli")
                .whereLayer("sweep").mayOnlyBeAccessedByLayers("evaluate", "compare", "report", "plan", "evolve", "cli")
                .whereLayer("io").mayOnlyBeAccessedByLayers("sweep", "evaluate", "compare", "report", "plan", "evolve", "cli")
                .whereLayer("exit").mayOnlyBeAccessedByLayers("io", "sweep", "evaluate", "compare", "report", "plan", "evolve",
                        "cli")
                .check(classes);
    }

    /** Each package name lives in one module, so a slice of the layering is one concept of one module. */
    @Test
    void aPackageLivesInOneModule() {
        java.util.Map<String, java.util.Set<String>> modules = new java.util.HashMap<>();
        for (var c : classes) {
            String location = c.getSource().map(s -> s.getUri().toString()).orElse("");
            String module = location.contains("/simcore/target/") || location.contains("servesim-simcore") ? "simcore" : "pipelines";
            modules.computeIfAbsent(c.getPackageName(), k -> new java.util.TreeSet<>()).add(module);
        }
        modules.forEach((pkg, in) -> org.junit.jupiter.api.Assertions.assertEquals(1, in.size(), pkg + " is in " + in));
    }

    /**
     * The kernel's promises, which determinism rests on: simcore reads no clock, no system property or environment
     * variable, starts no thread and keeps no static non-final field, and the packages a run executes do no file I/O (a
     * run's results depend only on its config and seed; the loaders in config, latency, workload, fidelity, usercode and
     * run read files before a run starts, and the bundled catalogs memoize what they parse from the application's
     * resources). One class is exempt: usercode's {@code Watchdog}, the one thread that reads the wall clock, to stop a
     * code policy's call that overran its time budget (a call within it is never touched, so results are unchanged).
     */
    @Test
    void theRunLoopReadsNoClockStartsNoThreadAndDoesNoIo() {
        String[] loop = {"io.servesim.kernel..", "io.servesim.engine..", "io.servesim.cluster..", "io.servesim.disagg..",
            "io.servesim.policy..", "io.servesim.metrics..", "io.servesim.slo..", "io.servesim.decisions..", "io.servesim.rng.."};
        String[] simcore = {"io.servesim.config..", "io.servesim.rng..", "io.servesim.slo..", "io.servesim.decisions..",
            "io.servesim.kernel..", "io.servesim.latency..", "io.servesim.engine..", "io.servesim.cluster..",
            "io.servesim.disagg..", "io.servesim.policy..", "io.servesim.metrics..", "io.servesim.workload..",
            "io.servesim.run..", "io.servesim.fidelity..", "io.servesim.usercode.."};
        noClasses().that().resideInAnyPackage(simcore).and().doNotHaveFullyQualifiedName("io.servesim.usercode.Watchdog")
                .should().callMethod(System.class, "currentTimeMillis").orShould().callMethod(System.class, "nanoTime")
                .orShould().callMethod(java.time.Instant.class, "now").orShould().callMethod(System.class, "getProperty",
                        String.class)
                .orShould().callMethod(System.class, "getenv", String.class)
                .orShould().dependOnClassesThat().areAssignableTo(Thread.class)
                .orShould().dependOnClassesThat().areAssignableTo(java.util.concurrent.Executor.class)
                .orShould().dependOnClassesThat().areAssignableTo(java.util.concurrent.CompletableFuture.class)
                .orShould().callMethod(java.util.stream.BaseStream.class, "parallel")
                .orShould().callMethod(java.util.Collection.class, "parallelStream")
                .check(classes);
        noClasses().that().resideInAnyPackage(loop)
                .should().dependOnClassesThat().belongToAnyOf(java.nio.file.Files.class, java.io.File.class,
                        java.io.FileInputStream.class, java.io.FileOutputStream.class, java.io.FileReader.class,
                        java.io.FileWriter.class, java.io.RandomAccessFile.class)
                .check(classes);
        com.tngtech.archunit.lang.syntax.ArchRuleDefinition.fields().that().areDeclaredInClassesThat()
                .resideInAnyPackage(simcore).and().areStatic()
                .should().beFinal().because("static mutable state would carry from one run to the next")
                .check(classes);
    }
}
