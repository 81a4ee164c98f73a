package io.servesim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.servesim.exit.ExitCode;
import io.servesim.testing.RepoFiles;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The CLI's failure paths through {@link Main#execute}, with stdout and stderr captured: flags that cannot
 * apply, the default workload, all-dropped runs, one-line errors without Java class names ({@code --debug} for the
 * stack trace), trace checks in validate and sweep validation, and output paths checked before any work.
 */
class CliFailurePathsTest {
    private static final String EXAMPLE = Path.of("..", "sweeps", "configs", "llama8b-h100.yaml").toString();
    private static final String RUN_DIR = RepoFiles.realRun().toString();
    /** A qualified Java class name, e.g. java.io.UncheckedIOException. */
    private static final Pattern CLASS_NAME = Pattern.compile("\\b(java|javax|com|org|io)\\.[a-z][\\w.]*\\.[A-Z]\\w*");

    @TempDir
    Path tmp;

    /** A CSV trace of {@code rows} requests 1 ms apart, and a config replaying it. */
    private Path traceConfig(int rows) throws Exception {
        StringBuilder csv = new StringBuilder("arrival_us,input_tokens,output_tokens\n");
        for (int i = 0; i < rows; i++) {
            csv.append(i * 1000).append(",100,10\n");
        }
        Files.writeString(tmp.resolve("t.csv"), csv);
        return Files.writeString(tmp.resolve("trace.yaml"), "deployment: {model: meta-llama/llama-3.1-8b-instruct, hardware: H100}\n"
                + "workload: {trace: {format: csv, path: t.csv}}\n");
    }

    // --- 1. a flag that cannot apply is an error; one that can is applied ---

    @Test
    void numRequestsTruncatesATraceAndRateIsRejectedForIt() throws Exception {
        Path cfg = traceConfig(10);
        CliRun.Result cut = CliRun.exec("run", "-c", cfg.toString(), "--num-requests", "3");
        assertEquals(0, cut.code(), cut.err());
        assertEquals(3, cut.json().get("injected").asInt());
        CliRun.Result rate = CliRun.exec("run", "-c", cfg.toString(), "--rate", "5");
        assertEquals(ExitCode.CONFIG_ERROR, rate.code(), rate.err());
        assertTrue(rate.err().contains("--rate does not apply to a trace replay"), rate.err());
        assertEquals("", rate.out());
    }

    @Test
    void workloadFileFlagsAreAppliedOrRejected() throws Exception {
        // a synthetic workload file (5,000 requests at 5.53/s): --num-requests and --rate replace its values
        CliRun.Result chat = CliRun.exec("run", "-c", EXAMPLE, "--set", "workload=../workloads/chat.yaml", "--num-requests", "40");
        assertEquals(0, chat.code(), chat.err());
        assertEquals(40, chat.json().get("injected").asInt());
        CliRun.Result slow = CliRun.exec("run", "-c", EXAMPLE, "--set", "workload=../workloads/chat.yaml", "--num-requests", "40",
                "--rate", "0.5");
        assertEquals(0, slow.code(), slow.err());
        assertTrue(slow.json().get("duration_s").asDouble() > 40, "40 requests at 0.5/s take well over 40 s: " + slow.out());
        // a trace workload file: --num-requests keeps its first N requests, --rate is refused
        Path moonWorkload = tmp.resolve("moon-workload.yaml");
        Files.writeString(moonWorkload, "trace: {format: mooncake, path: " + Path.of("..", "simcore", "src", "test", "resources",
                "traces", "mooncake_conversation_head500.jsonl").toAbsolutePath().normalize() + "}\n");
        Path cfg = tmp.resolve("moon.yaml");
        Files.writeString(cfg, "deployment: {model: meta-llama/llama-3.1-8b-instruct, hardware: H100}\n"
                + "workload: " + moonWorkload + "\n");
        CliRun.Result moon = CliRun.exec("run", "-c", cfg.toString(), "--num-requests", "20");
        assertEquals(0, moon.code(), moon.err());
        assertEquals(20, moon.json().get("injected").asInt());
        CliRun.Result moonRate = CliRun.exec("run", "-c", cfg.toString(), "--num-requests", "20", "--rate", "3");
        assertEquals(ExitCode.CONFIG_ERROR, moonRate.code());
        assertTrue(moonRate.err().contains("--rate does not apply to a trace replay"), moonRate.err());
    }

    @Test
    void skipBadLinesOnASyntheticWorkloadAndBadFlagValuesAreRejected() {
        CliRun.Result skip = CliRun.exec("run", "-c", EXAMPLE, "--skip-bad-lines");
        assertEquals(ExitCode.CONFIG_ERROR, skip.code());
        assertTrue(skip.err().contains("--skip-bad-lines applies only to a trace replay"), skip.err());
        CliRun.Result rate = CliRun.exec("run", "-c", EXAMPLE, "--rate", "0");
        assertEquals(ExitCode.CONFIG_ERROR, rate.code());
        assertTrue(rate.err().contains("workload.aggregate_rate: must be in (0, 1000000] requests/s, got 0"), rate.err());
        assertTrue(rate.err().contains("(given on the command line)"), rate.err());
        CliRun.Result n = CliRun.exec("run", "-c", EXAMPLE, "--num-requests", "-1");
        assertEquals(ExitCode.CONFIG_ERROR, n.code());
        assertTrue(n.err().contains("workload.num_requests: must be >= 0 requests, got -1"), n.err());
    }

    // --- 2. no config: the documented default workload ---

    @Test
    void runWithoutConfigUsesTheDefaultWorkload() throws Exception {
        CliRun.Result r = CliRun.exec("run", "--model", "meta-llama/llama-3.1-8b-instruct", "--hardware", "H100", "--rate", "4",
                "--num-requests", "100");
        assertEquals(0, r.code(), r.err());
        assertEquals(100, r.json().get("injected").asInt());
        assertTrue(r.err().contains("default workload"), r.err());
        CliRun.Result help = CliRun.exec("run", "--help");
        assertTrue(help.out().contains("default workload"), help.out());
    }

    // --- 3. every request dropped: exit 1 with the reasons ---

    @Test
    void aRunWhereEveryRequestIsDroppedExitsOneWithReasons() throws Exception {
        CliRun.Result r = CliRun.exec("run", "-c", EXAMPLE, "--num-requests", "30", "--max-model-len", "8");
        assertEquals(ExitCode.RUNTIME_ERROR, r.code(), r.err());
        assertEquals(30, r.json().get("drop_reasons").get("exceeds_max_model_len").asInt(), r.out());
        assertTrue(r.err().contains("servesim run: every request was dropped or rejected (30 of 30): exceeds_max_model_len 30"),
                r.err());
    }

    // --- 4 and 8. one line, no class names; --debug adds the stack trace ---

    @Test
    void runnerFailuresAreOneLineWithoutClassNamesUnlessDebug() throws Exception {
        // a trace that turns out unreadable while the run reads it, past the lines validation checks: bytes that are
        // not UTF-8 on line 152
        StringBuilder csv = new StringBuilder("arrival_us,input_tokens,output_tokens\n");
        for (int i = 0; i < 150; i++) {
            csv.append(i * 1000).append(",100,10\n");
        }
        Path trace = tmp.resolve("late.csv");
        Files.writeString(trace, csv);
        Files.write(trace, new byte[] {(byte) 0xff, (byte) 0xfe, '\n'}, java.nio.file.StandardOpenOption.APPEND);
        Path cfg = Files.writeString(tmp.resolve("dir.yaml"), "deployment: {model: meta-llama/llama-3.1-8b-instruct, hardware: H100}\n"
                + "workload: {trace: {format: csv, path: late.csv}}\n");
        CliRun.Result r = CliRun.exec("run", "-c", cfg.toString());
        assertEquals(ExitCode.RUNTIME_ERROR, r.code(), r.err());
        assertTrue(r.err().startsWith("servesim run: cannot read trace " + trace), r.err());
        assertEquals(1, r.err().strip().lines().count(), r.err());
        assertFalse(CLASS_NAME.matcher(r.err()).find(), r.err());
        CliRun.Result debug = CliRun.exec("--debug", "run", "-c", cfg.toString());
        assertEquals(ExitCode.RUNTIME_ERROR, debug.code());
        assertTrue(debug.err().contains("\tat "), "stack trace with --debug: " + debug.err());
        CliRun.Result debugAfter = CliRun.exec("run", "-c", cfg.toString(), "--debug");
        assertTrue(debugAfter.err().contains("\tat "), "--debug after the subcommand: " + debugAfter.err());
    }

    @Test
    void outputErrorsNameTheFlagWithoutClassNames() throws Exception {
        Path file = Files.writeString(tmp.resolve("plain"), "x");
        CliRun.Result r = CliRun.exec("run", "-c", EXAMPLE, "--num-requests", "5", "--requests-out", file.resolve("r.parquet").toString());
        assertEquals(ExitCode.CONFIG_ERROR, r.code());
        assertTrue(r.err().contains("--requests-out " + file.resolve("r.parquet") + ": " + file + " is not a directory"), r.err());
        assertFalse(CLASS_NAME.matcher(r.err()).find(), r.err());
    }

    // --- 5. validate checks a trace's header and first lines ---

    @Test
    void validateReportsABadTraceHeaderOrLineWithFileAndLine() throws Exception {
        Path cfg = traceConfig(5);
        Files.writeString(tmp.resolve("t.csv"), "arrival_us,input_tokens,output_tokens\n0,100,10\n1000,oops,10\n");
        CliRun.Result line = CliRun.exec("validate", cfg.toString());
        assertEquals(ExitCode.CONFIG_ERROR, line.code(), line.out());
        assertTrue(line.err().contains(tmp.resolve("t.csv") + ":3: input_tokens is not an integer: 'oops'"), line.err());
        Files.writeString(tmp.resolve("t.csv"), "ts,in,out\n0,100,10\n");
        CliRun.Result header = CliRun.exec("validate", cfg.toString());
        assertEquals(ExitCode.CONFIG_ERROR, header.code());
        assertTrue(header.err().contains(tmp.resolve("t.csv") + ":1: expected header"), header.err());
    }

    @Test
    void sweepValidationChecksEachTraceFile() throws Exception {
        traceConfig(5);
        Files.writeString(tmp.resolve("t.csv"), "arrival_us,input_tokens,output_tokens\n0,100,10\n1000,oops,10\n");
        Path sweep = Files.writeString(tmp.resolve("sweep.yaml"), "name: t\nbase:\n"
                + "  deployment: {model: meta-llama/llama-3.1-8b-instruct, hardware: H100}\n"
                + "  workload: {trace: {format: csv, path: t.csv}}\n"
                + "axes:\n  - {name: seqs, path: engine.max_num_seqs, values: [8, 16]}\nseeds: [1]\n");
        CliRun.Result r = CliRun.exec("sweep", sweep.toString(), "--output", tmp.resolve("out").toString());
        assertEquals(ExitCode.CONFIG_ERROR, r.code(), r.err());
        assertTrue(r.err().contains(tmp.resolve("t.csv") + ":3: input_tokens is not an integer"), r.err());
    }

    // --- 6. output paths are checked before the work ---

    @Test
    void replayAndCalibrateCheckTheirOutputBeforeWorking() throws Exception {
        Path dir = Files.createDirectory(tmp.resolve("out.parquet"));
        CliRun.Result replay = CliRun.exec("replay-real", RUN_DIR, "--hardware", "RTXPRO6000", "--latency-model", "blackbox", "-o", dir.toString());
        assertEquals(ExitCode.CONFIG_ERROR, replay.code(), replay.err());
        assertTrue(replay.err().contains("--out " + dir + ": is a directory"), replay.err());
        assertEquals("", replay.out(), "nothing replayed");
        CliRun.Result calibrate = CliRun.exec("calibrate", RUN_DIR, "--hardware", "RTXPRO6000", "--out", dir.toString());
        assertEquals(ExitCode.CONFIG_ERROR, calibrate.code());
        assertTrue(calibrate.err().contains("--out " + dir + ": is a directory"), calibrate.err());
        assertEquals("", calibrate.out(), "nothing fitted");
    }

    @Test
    void runChecksSessionsOutAndCompareChecksOutput() throws Exception {
        Path dir = Files.createDirectory(tmp.resolve("s.parquet"));
        CliRun.Result run = CliRun.exec("run", "-c", EXAMPLE, "--num-requests", "5", "--requests-out", tmp.resolve("r.parquet").toString(),
                "--sessions-out", dir.toString());
        assertEquals(ExitCode.CONFIG_ERROR, run.code());
        assertTrue(run.err().contains("--sessions-out " + dir + ": is a directory"), run.err());
        assertFalse(Files.exists(tmp.resolve("r.parquet")), "no other output started");
        Path file = Files.writeString(tmp.resolve("file"), "x");
        Path csv = Files.writeString(tmp.resolve("real.csv"), "a,ttft_p99_ms\n1,2\n");
        CliRun.Result compare = CliRun.exec("compare", "--sim", csv.toString(), "--real", csv.toString(), "--on", "a",
                "--metrics", "ttft_p99_ms", "--output", file.toString());
        assertEquals(ExitCode.CONFIG_ERROR, compare.code());
        assertTrue(compare.err().contains("--output " + file + ": is not a directory"), compare.err());
    }
}
