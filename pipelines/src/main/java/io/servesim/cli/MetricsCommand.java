package io.servesim.cli;

import java.io.PrintStream;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

/**
 * {@code servesim metrics}: every output metric from the metric catalog (name, unit, which way is better, its
 * {@code cells/} and {@code evaluate} columns, fitness rule, the report panels that draw it, description and source), as
 * {@code docs/metrics-reference.md} has it. A command of its own rather than a flag of {@code config}: settings are what
 * a run reads and metrics what it writes, each with its own catalog, reference page and listing, and {@code config}'s
 * flags (a config file, {@code --effective}, every setting's flag) would mean nothing for metrics.
 */
@Command(name = "metrics", mixinStandardHelpOptions = true, description = {
    "List every output metric: unit, which way is better, its cells/ and evaluate columns, fitness rule, report panels,",
    "description and source (docs/metrics-reference.md)."})
public final class MetricsCommand implements Callable<Integer> {
    @Override
    public Integer call() {
        return run(System.out);
    }

    int run(PrintStream out) {
        out.print(MetricsReference.listing());
        out.flush();
        return 0;
    }
}
