package io.servesim.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/** Runs {@code servesim args...} in process ({@link Main#execute}) with System.out and System.err captured. */
final class CliRun {
    private CliRun() {
    }

    /** What a call printed and returned. */
    record Result(int code, String out, String err) {
        /** Standard output as JSON (a run's summary). */
        JsonNode json() throws Exception {
            return new ObjectMapper().readTree(out);
        }
    }

    static Result exec(String... args) {
        PrintStream savedOut = System.out;
        PrintStream savedErr = System.err;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        int code;
        try {
            code = Main.execute(args);
        } finally {
            System.setOut(savedOut);
            System.setErr(savedErr);
        }
        return new Result(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }
}
