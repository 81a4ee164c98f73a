package io.servesim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.servesim.engine.FrontEndSettings;
import io.servesim.fidelity.IngressFit;
import io.servesim.latency.RooflineConstants;
import io.servesim.testing.RepoFiles;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code validate-latency --study quick} end to end: the CLI simulates the quick set (Qwen2.5-7B roleplay,
 * Llama-2-7B codegen) of the shipped sim-to-real trainval set from their configs and inference-perf workloads, and prints the real means of
 * {@code sweeps/data/validation/sim2real-trainval/means.csv}, servesim's means, its errors and the peers'.
 */
class ValidateLatencyStudyTest {
    private static final String QWEN = "64-qwen2-5-7b-instruct-tp1-roleplay-1-1";
    private static final String LLAMA = "20260217-155451-llama-2-7b-tp1-codegen";
    private static final Path DATA = RepoFiles.data("");

    @Test
    void quickStudyPrintsRealMeansServesimAndPeersErrors() {
        CliRun.Result r = CliRun.exec("validate-latency", "--data", DATA.toString(), "--study", "quick");
        assertEquals(0, r.code(), r.err());
        String out = r.out();
        // header: E2E mean, real ms, servesim ms, servesim, then the peers that predicted these experiments
        assertTrue(squeezed(out).contains("E2E mean real ms servesim ms servesim BLIS-roof BLIS-evol Vidur AIConfig llm-optim"), out);
        // the quick set is those two runs only, and the ingress is fitted on the full set alone
        assertFalse(out.contains("17-llama-4-scout"), out);
        assertFalse(out.contains("front end ingress"), out);
        for (String metric : List.of("E2E mean", "TTFT mean", "ITL mean")) {
            for (String exp : List.of(QWEN, LLAMA)) {
                String[] f = row(out, metric, exp);
                double real = Double.parseDouble(f[1]);
                double sim = Double.parseDouble(f[2]);
                double err = percent(f[3]);
                // servesim's error is (servesim - real) / real of the printed means, to their rounding (0.05 ms)
                assertEquals(100 * (sim - real) / real, err, 0.06 + 100 * 0.05 / real * 2, metric + " " + exp);
                // a regression bound, not the target: the roofline within 30% of every real mean of these runs
                assertTrue(Math.abs(err) < 30, metric + " " + exp + " " + err);
            }
        }
        // means.csv: Qwen E2E real mean 1771.7997 ms, BLIS-roofline 1181.3631 ms: (1181.3631 - 1771.7997) / 1771.7997 = -33.3%
        String[] qwenE2e = row(out, "E2E mean", QWEN);
        assertEquals("1771.8", qwenE2e[1]);
        assertEquals("-33.3%", qwenE2e[4]);
        // Llama TTFT real mean 27.9818 ms, Vidur 24.1789 ms: -3.8029 / 27.9818 = -13.6%; Qwen has no Vidur number
        assertEquals("28.0", row(out, "TTFT mean", LLAMA)[1]);
        assertEquals("-13.6%", row(out, "TTFT mean", LLAMA)[6]);
        assertEquals("-", row(out, "TTFT mean", QWEN)[6]);
        // Qwen ITL real mean 7.0231 ms
        assertEquals("7.0", row(out, "ITL mean", QWEN)[1]);
        // the median |error| of two experiments is the mean of their |errors|; of one (Vidur), its |error|
        for (String metric : List.of("E2E mean", "TTFT mean", "ITL mean")) {
            String[] median = row(out, metric, "median |error|");
            double a = Math.abs(percent(row(out, metric, QWEN)[3]));
            double b = Math.abs(percent(row(out, metric, LLAMA)[3]));
            assertEquals((a + b) / 2, percent(median[1]), 0.051, metric);
            assertEquals(Math.abs(percent(row(out, metric, LLAMA)[6])), percent(median[4]), 1e-9, metric);
            assertEquals(List.of("experiments", "2", "2", "2", "1", "2", "2"), List.of(row(out, metric, "experiments")));
        }
    }

    @Test
    void theIngressLineGivesTheFitItsLeaveOneOutRangeAndTheShippedDefault() {
        IngressFit fit = new IngressFit(11.154, new double[] {10.42, 11.97, 11.2}, new double[] {0.04, 0.06, 0.05},
                List.of("a", "b", "c"));
        String line = ValidateLatencyCommand.ingressLine(fit);
        assertTrue(line.contains("over these 3 experiments: 11.15 us per prompt token (leaving one out: 10.42-11.97,"
                + " held-out median |error| 5.0%); the shipped default: "
                + String.format(java.util.Locale.ROOT, "%.2f", FrontEndSettings.FITTED_TOKENIZE_US_PER_TOKEN)), line);
    }

    @Test
    void writeConstantsRefusesAnExistingFileAndReplacesItWithOverwrite(@TempDir Path dir) throws Exception {
        Path out = dir.resolve("sub").resolve("constants.yaml");
        CliRun.Result first = CliRun.exec("validate-latency", "--data", DATA.toString(), "--study", "none", "--write-constants",
                out.toString());
        assertEquals(0, first.code(), first.err());
        // the fit on the shipped data is the bundled file, byte for byte
        String bundled = new String(RooflineConstants.class.getResourceAsStream("roofline_constants.yaml").readAllBytes(),
                java.nio.charset.StandardCharsets.UTF_8);
        assertEquals(bundled, Files.readString(out));
        Files.writeString(out, "mine\n");
        CliRun.Result again = CliRun.exec("validate-latency", "--data", DATA.toString(), "--study", "none", "--write-constants",
                out.toString());
        assertEquals(2, again.code(), again.err());
        assertTrue(again.err().contains("exists; servesim replaces an existing file only when told to (it may be another run's output or yours)"), again.err());
        assertEquals("mine\n", Files.readString(out));
        CliRun.Result replaced = CliRun.exec("validate-latency", "--data", DATA.toString(), "--study", "none", "--write-constants",
                out.toString(), "--overwrite");
        assertEquals(0, replaced.code(), replaced.err());
        assertEquals(bundled, Files.readString(out));
        try (var files = Files.list(out.getParent())) {
            assertEquals(List.of(out), files.toList(), "no staged file left behind");
        }
    }

    @Test
    void studyNonePrintsNoTableAndAnUnknownSetIsRefused() {
        CliRun.Result none = CliRun.exec("validate-latency", "--data", DATA.toString(), "--study", "none");
        assertEquals(0, none.code(), none.err());
        assertFalse(none.out().contains("sim-to-real"), none.out());
        // the expert-parallel reference case (ExpertParallelReplayTest holds the same numbers with margins)
        String ep = squeezed(none.out());
        assertTrue(ep.contains("latency model TTFT mean TPOT mean E2E mean TTFT p99 TPOT p99 E2E p99"), ep);
        assertTrue(ep.contains("roofline -2.3% -0.1% -0.1% -0.3% -0.8% -0.0%"), ep);
        assertTrue(ep.contains("profiled -7.5% -1.1% -1.4% +1.7% +0.3% -1.4%"), ep);
        CliRun.Result bad = CliRun.exec("validate-latency", "--data", DATA.toString(), "--study", "some");
        assertEquals(2, bad.code(), bad.err());
        assertTrue(bad.err().contains("full, quick, none"), bad.err());
    }

    /** The fields of the row of {@code first} in the table headed {@code metric}, the label's words joined. */
    private static String[] row(String out, String metric, String first) {
        List<String> lines = out.lines().toList();
        int start = -1;
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).startsWith(metric + " ")) {
                start = i;
                break;
            }
        }
        assertTrue(start >= 0, "no table " + metric + " in\n" + out);
        for (int i = start + 1; i < lines.size() && !lines.get(i).isBlank(); i++) {
            if (lines.get(i).startsWith(first + " ")) {
                String rest = lines.get(i).substring(first.length()).strip();
                String[] f = rest.split("\\s+");
                String[] all = new String[f.length + 1];
                all[0] = first;
                System.arraycopy(f, 0, all, 1, f.length);
                return all;
            }
        }
        throw new AssertionError("no row " + first + " in table " + metric + ":\n" + out);
    }

    private static double percent(String field) {
        return Double.parseDouble(field.substring(0, field.length() - 1));
    }

    private static String squeezed(String s) {
        return s.replaceAll("[ \\t]+", " ");
    }
}
