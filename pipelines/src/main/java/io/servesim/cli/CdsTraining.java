package io.servesim.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * The training run behind the launcher's class-data-sharing archive ({@code scripts/servesim} runs
 * it once per build under {@code -XX:ArchiveClassesAtExit}): a short {@code run}, then the one-cell
 * benchmark sweep on the DirectRunner and on embedded Flink, so the archive holds the classes of
 * the kernel, Beam, both runners, Avro and Parquet. Loading them from the archive instead of
 * parsing and verifying them from jars takes about 1 s off every sweep on the DirectRunner and
 * 2 s off every embedded-Flink sweep. Outputs go to a temporary directory that is removed.
 */
public final class CdsTraining {
    private CdsTraining() {
    }

    /** {@code args[0]}: the project root. Exits non-zero if any step fails (the launcher then keeps no archive). */
    public static void main(String[] args) throws IOException {
        Path root = Path.of(args[0]);
        Path sweep = root.resolve("sweeps/bench/bench-1.yaml");
        Path tmp = Files.createTempDirectory("servesim-cds-");
        int code;
        try {
            code = Math.max(Math.max(
                    Main.execute("run", "--config", root.resolve("sweeps/configs/llama8b-h100.yaml").toString(), "--num-requests", "200"),
                    Main.execute("sweep", sweep.toString(), "--output", tmp.resolve("direct").toString())),
                    Main.execute("sweep", sweep.toString(), "--output", tmp.resolve("flink").toString(),
                            "--runner", "flink", "--flink-master", "[local]", "--parallelism", "2"));
        } finally {
            try (Stream<Path> walk = Files.walk(tmp)) {
                for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(p);
                }
            }
        }
        System.exit(code);
    }
}
