package io.servesim.sweep;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * Flink configuration for the embedded mini cluster ({@code --flink-master [local]}), sized to the
 * sweep's parallelism instead of Flink's local-execution defaults (128 MB managed memory, 64 MB
 * network buffers, a 64 MB batch-shuffle read pool, Hadoop delegation tokens).
 *
 * <p>A sweep's records are small (cells in, one row batch per cell and dataset out), yet Flink
 * allocates and first-touches all of that off-heap memory before the first cell runs: on this
 * project's 2-core VM the defaults cost ~1.3 s of a one-cell sweep's ~5 s (sorter pages for the
 * Reshuffle and WriteFiles group-reduces, the network buffer pool, the sort-shuffle read pool). The
 * sizes grow with parallelism because each slot's sorters and each all-to-all exchange's channels
 * need their own pages (measured: 24 MB managed memory fails at parallelism 16 with "Too little
 * memory provided to sorter", 16 MB of network buffers fails there with "Insufficient number of
 * network buffers"; the formulas below give 136 MB and 64 MB at 16, where Flink's defaults pass).
 *
 * <p>A user's own {@code FLINK_CONF_DIR} wins: then nothing is generated and Flink reads theirs.
 * Keys: Flink 1.19 "Memory Configuration" and "Security" option references.
 */
final class FlinkLocalConf {
    static final String ENV = "FLINK_CONF_DIR";

    private FlinkLocalConf() {
    }

    /** Managed memory for {@code parallelism} slots: two sorters per slot need a few MB each. */
    static int managedMb(int parallelism) {
        return 8 * parallelism + 8;
    }

    /** Network buffers: all-to-all exchanges need channels (and so buffers) growing with parallelism squared. */
    static int networkMb(int parallelism) {
        return Math.max(16, parallelism * parallelism / 4);
    }

    /** The {@code config.yaml} text for {@code parallelism} slots. */
    static String yaml(int parallelism) {
        int network = networkMb(parallelism);
        return "# servesim sweep: embedded Flink sized to parallelism " + parallelism + " (io.servesim.sweep.FlinkLocalConf)\n"
                + "taskmanager.memory.managed.size: " + managedMb(parallelism) + "m\n"
                + "taskmanager.memory.network.min: " + network + "m\n"
                + "taskmanager.memory.network.max: " + network + "m\n"
                + "taskmanager.memory.framework.off-heap.batch-shuffle.size: 8m\n"
                + "security.delegation.tokens.enabled: false\n";
    }

    /**
     * Writes {@link #yaml} into a fresh directory deleted at exit and returns it; null when
     * {@code env} names a {@code FLINK_CONF_DIR} of the user's.
     */
    static Path materialize(int parallelism, Map<String, String> env) {
        String own = env.get(ENV);
        if (own != null && !own.isBlank()) {
            return null;
        }
        try {
            Path dir = Files.createTempDirectory("servesim-flink-conf");
            Path file = Files.writeString(dir.resolve("config.yaml"), yaml(parallelism));
            dir.toFile().deleteOnExit();
            file.toFile().deleteOnExit();
            return dir;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the embedded Flink configuration", e);
        }
    }
}
