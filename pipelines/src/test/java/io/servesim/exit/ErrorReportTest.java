package io.servesim.exit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.servesim.config.ConfigException;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.file.NoSuchFileException;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link ErrorReport}: cause chains on one line without class names, exit codes, --debug. */
class ErrorReportTest {
    private static String report(Throwable e, boolean debug, int expectedCode) {
        StringWriter text = new StringWriter();
        assertEquals(expectedCode, new ErrorReport("run", new PrintWriter(text), debug).report(e));
        return text.toString();
    }

    @Test
    void theCauseChainIsOneLineWithoutClassNames() {
        // a wrapper whose message is its cause's toString() ("java.io.IOException: disk full") says it once
        assertEquals("servesim run: disk full\n",
                report(new RuntimeException(new IOException("disk full")), false, ExitCode.RUNTIME_ERROR));
        assertEquals("servesim run: cannot read trace t.csv: t.csv: no such file or directory\n",
                report(new UncheckedIOException("cannot read trace t.csv", new NoSuchFileException("t.csv")), false,
                        ExitCode.RUNTIME_ERROR));
        assertEquals("servesim run: cannot write x: /etc/passwd\n",
                report(new IllegalStateException("cannot write x: java.nio.file.FileAlreadyExistsException: /etc/passwd"),
                        false, ExitCode.RUNTIME_ERROR));
        assertEquals("servesim run: internal error without a message (--debug shows the stack trace)\n",
                report(new NullPointerException(), false, ExitCode.RUNTIME_ERROR));
        // a message naming a type that is no exception keeps it
        assertEquals("servesim run: policies.routing.params.source: R.java:2: java.nio.file.Files: not allowed\n",
                report(new ConfigException("policies.routing.params.source", "R.java:2: java.nio.file.Files: not allowed"),
                        false, ExitCode.CONFIG_ERROR));
    }

    @Test
    void aRefusedFlinkSubmissionNamesTheAddressOnce() {
        // the shape of the FlinkRunner's failure on an unreachable master: the innermost cause has no
        // address, the netty exception wrapping it adds it, its wrapper repeats it after a class name
        Exception refused = new java.net.ConnectException("Connection refused");
        Exception annotated = new Exception("Connection refused: /127.0.0.1:8081", refused);
        Exception completion = new java.util.concurrent.CompletionException("org.apache.flink.shaded.netty4.io.netty.channel"
                + ".AbstractChannel$AnnotatedConnectException: Connection refused: /127.0.0.1:8081", annotated);
        Exception submit = new Exception("Failed to submit JobGraph.", completion);
        String line = report(new RuntimeException(new java.util.concurrent.ExecutionException(submit)), false, ExitCode.RUNTIME_ERROR);
        assertEquals("servesim run: Failed to submit JobGraph.: Connection refused: /127.0.0.1:8081\n", line);
    }

    @Test
    void inputProblemsExitTwoAndConfigProblemsAreListed() {
        assertEquals("servesim run: --rate must be > 0\n", report(new UsageException("--rate must be > 0"), false, ExitCode.CONFIG_ERROR));
        String two = report(new ConfigException(List.of(new ConfigException.Problem("a.b", "bad"),
                new ConfigException.Problem("c", "worse"))), false, ExitCode.CONFIG_ERROR);
        assertEquals("servesim run:\n  a.b: bad\n  c: worse\n", two);
    }

    @Test
    void debugAddsTheStackTrace() {
        String text = report(new IllegalStateException("boom"), true, ExitCode.RUNTIME_ERROR);
        assertTrue(text.startsWith("servesim run: boom\n"), text);
        assertTrue(text.contains("\tat io.servesim.exit.ErrorReportTest"), text);
    }
}
