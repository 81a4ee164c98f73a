package io.servesim.fidelity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.servesim.testing.RepoFiles;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The sim-to-real study's shipped facts are complete and consistent, and bad ones are refused with their place. */
class Sim2RealStudyTest {
    private static final Path STUDY = RepoFiles.data("validation/sim2real-trainval");

    @Test
    void everyShippedExperimentHasItsRealMeansAndAConfig() throws Exception {
        StudyMeans means = StudyMeans.read(STUDY.resolve("means.csv"));
        // the study's trainval set: 13 experiments, each with a real E2E, TTFT and ITL mean
        assertEquals(13, means.actual().size());
        means.actual().forEach((exp, m) -> {
            assertEquals(StudyMeans.METRICS, List.copyOf(m.keySet()), exp);
            assertTrue(Files.isRegularFile(STUDY.resolve("configs").resolve(exp + ".yaml")), exp);
        });
        try (var s = Files.list(STUDY.resolve("configs"))) {
            assertEquals(13, s.count());
        }
        // every experiment was predicted by BLIS's roofline and evolved models
        means.predicted().forEach((exp, p) -> assertTrue(p.keySet().containsAll(List.of("blis-roofline", "blis-evolved")), exp));
    }

    @Test
    void oneExperimentRunsAndItsMeansAreTheStudys() {
        Sim2RealStudy s = Sim2RealStudy.run(STUDY, List.of("64-qwen2-5-7b-instruct-tp1-roleplay-1-1"));
        assertEquals(1, s.rows().size());
        Sim2RealStudy.Row r = s.rows().get(0);
        // roleplay: 6 req/s x 1200 s = 7200 requests, all completed
        assertEquals(7200, r.injected());
        assertEquals(7200, r.completed());
        // the study's ITL: (E2E - TTFT) / (output tokens - 1), every request generating its 251 tokens (ignore_eos)
        assertEquals((r.e2eMs() - r.ttftMs()) / 250, r.itlMs(), 1e-9);
        // its error against the real E2E mean 1771.7997 ms of means.csv
        assertEquals(100 * (r.e2eMs() - 1771.7997308375523) / 1771.7997308375523, s.servesimError(r, "e2e_mean"), 1e-9);
        assertTrue(Double.isNaN(s.peerError(r.experiment(), "vidur", "e2e_mean")), "Vidur did not predict it");
    }

    @Test
    void anUnknownExperimentIsRefusedWithTheKnownOnes() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Sim2RealStudy.run(STUDY, List.of("99-x")));
        assertTrue(e.getMessage().contains("experiment '99-x'") && e.getMessage().contains("67-llama-2-7b-hf-tp1-reasoning-lite-1-1"),
                e.getMessage());
    }

    @Test
    void aConfigWithoutMeansAndABadLineAreRefusedWithTheirPlace(@TempDir Path tmp) throws Exception {
        Files.createDirectories(tmp.resolve("configs"));
        Files.writeString(tmp.resolve("configs/x.yaml"), "seed: 1\n");
        Files.writeString(tmp.resolve("means.csv"), "experiment,simulator,metric,predicted,actual\ny,vidur,e2e_mean,1,2\n");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Sim2RealStudy.run(tmp, List.of()));
        assertTrue(e.getMessage().contains("x.yaml: no real means of 'x'"), e.getMessage());
        Files.writeString(tmp.resolve("means.csv"), "experiment,simulator,metric,predicted,actual\nx,vidur,e2e_p90,1,2\n");
        e = assertThrows(IllegalArgumentException.class, () -> StudyMeans.read(tmp.resolve("means.csv")));
        assertTrue(e.getMessage().endsWith("means.csv:2: metric 'e2e_p90': expected one of [e2e_mean, ttft_mean, itl_mean]"),
                e.getMessage());
        Files.writeString(tmp.resolve("means.csv"), "experiment,simulator,metric,predicted,actual\nx,vidur,e2e_mean,1,-2\n");
        e = assertThrows(IllegalArgumentException.class, () -> StudyMeans.read(tmp.resolve("means.csv")));
        assertTrue(e.getMessage().contains("means.csv:2: actual '-2': expected a positive number of ms"), e.getMessage());
    }
}
