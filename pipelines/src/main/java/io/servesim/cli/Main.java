package io.servesim.cli;

import io.servesim.exit.ErrorReport;
import io.servesim.exit.ExitCode;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;
import picocli.CommandLine;

/**
 * The {@code servesim} command line. {@code main} only parses and exits; each subcommand's
 * {@code call()} delegates to a {@code run(...)} method that tests call directly.
 * Exit codes ({@link ExitCode}): 0 success, 1 runtime failure, 2 configuration error. Failures are
 * reported by {@link ErrorReport}: one line, the stack trace only with the global {@code --debug}.
 */
@Command(name = "servesim", mixinStandardHelpOptions = true, version = "servesim 0.1.0",
        description = "Deterministic simulator of LLM inference serving (vLLM-style engines, clusters, sweeps).")
public final class Main {
    /** The subcommands, in help order. */
    private static final List<Class<?>> SUBCOMMANDS = List.of(RunCommand.class, ValidateCommand.class, BenchCommand.class,
            ReplayRealCommand.class, CalibrateCommand.class, ValidateLatencyCommand.class, CompareCommand.class,
            SweepCommand.class, ReportCommand.class, PlanCommand.class, CapacityCommand.class, EvolveCommand.class, EvaluateCommand.class,
            ConfigCommand.class, MetricsCommand.class);

    @Option(names = "--debug", scope = ScopeType.INHERIT,
            description = "on a failure, print the stack trace after the one-line error (any subcommand)")
    boolean debug;

    static {
        // picocli's default factory looks up Groovy's Closure class when it loads; on the launcher's
        // classpath of ~280 jars that miss opens every jar, ~150 ms of each command's start-up.
        if (System.getProperty("picocli.disable.closures") == null) {
            System.setProperty("picocli.disable.closures", "true");
        }
    }

    public static void main(String[] args) {
        System.exit(execute(args));
    }

    /** Parses and runs without exiting (for tests). */
    public static int execute(String... args) {
        CommandLine cl = new CommandLine(new Main());
        // picocli builds a subcommand's model by reflection when it is added; a call names one, so
        // only that one is built (all of them for help, errors and unknown names). Each is built as its
        // own CommandLine so its model transformer (CatalogFlags) runs.
        String named = args.length > 0 ? args[0] : "";
        boolean one = SUBCOMMANDS.stream().anyMatch(c -> c.getAnnotation(Command.class).name().equals(named));
        for (Class<?> c : SUBCOMMANDS) {
            if (!one || c.getAnnotation(Command.class).name().equals(named)) {
                cl.addSubcommand(new CommandLine(c));
            }
        }
        // one line, as every other error (the usage is 200 lines and buried the cause), plus picocli's
        // "Did you mean" for a misspelt option or subcommand
        cl.setParameterExceptionHandler((ex, a) -> {
            CommandLine c = ex.getCommandLine();
            String name = c.getCommandSpec().qualifiedName(" ");
            c.getErr().println(name + ": " + ex.getMessage() + " (" + name + " --help lists the options)");
            CommandLine.UnmatchedArgumentException.printSuggestions(ex, c.getErr());
            return ExitCode.CONFIG_ERROR;
        });
        cl.setExecutionExceptionHandler((ex, sub, parsed) -> errors(sub.getCommandSpec()).report(ex));
        return cl.execute(args);
    }

    /**
     * The error reporter of subcommand {@code spec}: its name, the command line's error writer and the
     * global {@code --debug} flag.
     */
    public static ErrorReport errors(CommandSpec spec) {
        return new ErrorReport(spec.name(), spec.commandLine().getErr(), debug(spec));
    }

    /** Whether the global {@code --debug} flag was given (before or after the subcommand's name). */
    public static boolean debug(CommandSpec spec) {
        return spec.root().userObject() instanceof Main main && main.debug;
    }
}
