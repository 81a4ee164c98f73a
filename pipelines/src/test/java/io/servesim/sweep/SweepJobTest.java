package io.servesim.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.ConnectException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.Test;

/** How a runner failure is put in one line. */
class SweepJobTest {
    @Test
    void aRunnerFailureIsItsRootCauseWithTheAddressAndNoClassNames() {
        // the shape of a refused Flink submission: the innermost cause has no address, the netty
        // exception wrapping it repeats its message with the address, its wrapper prefixes a class name
        ConnectException refused = new ConnectException("Connection refused");
        Exception annotated = new Exception("Connection refused: /127.0.0.1:8081", refused);
        CompletionException completion = new CompletionException(
                "org.apache.flink.shaded.netty4.io.netty.channel.AbstractChannel$AnnotatedConnectException: Connection refused: /127.0.0.1:8081",
                annotated);
        Exception retries = new Exception("Could not complete the operation. Number of retries has been exhausted.", completion);
        RuntimeException top = new RuntimeException(new ExecutionException("java.util.concurrent.ExecutionException: x", retries));
        assertEquals("Connection refused: /127.0.0.1:8081", SweepJob.rootCause(top));
    }

    @Test
    void aCauseWithoutAMessageIsNamedPlainly() {
        assertEquals("no message (NullPointerException)", SweepJob.rootCause(new RuntimeException(new NullPointerException())));
        assertEquals("disk full", SweepJob.rootCause(new RuntimeException("wrapper", new java.io.IOException("disk full"))));
    }
}
