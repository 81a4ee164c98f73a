package io.servesim.sweep;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * servesim in a child JVM (this test run's classpath, {@code io.servesim.cli.Main}), for what only a real process
 * shows: a signal, a second writer, a {@code kill -9}. Its stderr goes to a file the test reads.
 *
 * @param process the child
 * @param err     the file its stderr goes to
 */
public record ChildServesim(Process process, Path err) implements AutoCloseable {
    /** Starts {@code servesim args...} with stderr in {@code errFile} (stdout discarded). */
    public static ChildServesim start(Path errFile, String... args) throws IOException {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn",
                "io.servesim.cli.Main"));
        cmd.addAll(List.of(args));
        return new ChildServesim(new ProcessBuilder(cmd).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(errFile.toFile()).start(), errFile);
    }

    /** Waits (at most 120 s) until {@code condition} holds, failing if the child ends first. */
    public void awaitWhileAlive(BooleanSupplier condition, String what) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (!condition.getAsBoolean()) {
            assertTrue(process.isAlive(), "the child ended before " + what + ": " + Files.readString(err));
            assertTrue(System.nanoTime() < deadline, "not " + what + " in 120 s");
            Thread.sleep(20);
        }
    }

    /** Sends {@code signal} ("INT", "TERM", "KILL") and returns the exit code. */
    public int signal(String signal) throws Exception {
        assertTrue(!signal.equals("INT") || !sigintIgnored(), "SIGINT is ignored in this process tree (the tests were"
                + " started in the background by a shell without job control, which ignores it for them), so the child"
                + " inherits that and cannot be interrupted by it: run the tests in the foreground");
        new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid())).start().waitFor();
        assertTrue(process.waitFor(60, TimeUnit.SECONDS), "the child did not exit after SIG" + signal);
        return process.exitValue();
    }

    /**
     * Whether this JVM started with SIGINT ignored, which its children inherit (a JVM then installs no handler for it):
     * bit 2 of the {@code SigIgn} mask of {@code /proc/self/status} (Linux; false where it cannot be read).
     */
    static boolean sigintIgnored() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("SigIgn:")) {
                    return (Long.parseUnsignedLong(line.substring("SigIgn:".length()).strip(), 16) & 0b10) != 0;
                }
            }
        } catch (IOException | NumberFormatException e) {
            return false;
        }
        return false;
    }

    /** Waits for the child to end and returns its exit code. */
    public int exitCode() throws Exception {
        assertTrue(process.waitFor(300, TimeUnit.SECONDS), "the child did not finish");
        return process.exitValue();
    }

    public String stderr() throws IOException {
        return Files.readString(err);
    }

    /** Finished cells kept in {@code out}'s staging folder (0 while there is none). */
    static int kept(Path out) {
        try {
            return Checkpoint.files(Checkpoint.dir(out.resolve(OutputDir.STAGING))).size();
        } catch (IOException e) {
            return 0;
        }
    }

    @Override
    public void close() {
        process.destroyForcibly();
    }
}
