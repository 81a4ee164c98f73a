package io.servesim.latency;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.servesim.config.ConfigException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SplitwiseModelTest {
    private static final String HEADER = "model,hardware,prompt_size,batch_size,token_size,peak_power,average_power,"
            + "prompt_time,token_time,e2e_time,tensor_parallel\n";

    private static SplitwiseModel model(Path dir, String rows) throws IOException {
        Files.writeString(dir.resolve("perf_model.csv"), HEADER + rows);
        return SplitwiseModel.read(ProfileFiles.directory(dir), "perf_model.csv", "m", "gpu", 2, "test");
    }

    private static StepShape step(int prefill, int decodes, int context) {
        StepShape s = new StepShape();
        if (prefill > 0) {
            s.addPrefill(prefill, 0);
        }
        for (int i = 0; i < decodes; i++) {
            s.addDecode(context);
        }
        return s;
    }

    @Test
    void keysByBatchTokensWithMedianRepeats(@TempDir Path dir) throws IOException {
        // Key 512 (512 x 1) measured three times: prompt median 100 ms, token median 20 ms.
        // Key 1024 (512 x 2 and 1024 x 1, two rows): prompt median (180 + 220) / 2 = 200, token (24 + 26) / 2 = 25.
        SplitwiseModel m = model(dir, """
                m,gpu,512,1,128,1,1,90,19,0,2
                m,gpu,512,1,128,1,1,100,20,0,2
                m,gpu,512,1,128,1,1,130,22,0,2
                m,gpu,512,2,128,1,1,180,24,0,2
                m,gpu,1024,1,128,1,1,220,26,0,2
                other,gpu,512,1,128,1,1,1,1,0,2
                m,gpu,512,1,128,1,1,1,1,0,4
                """);
        assertEquals(100_000, m.stepTimeUs(step(512, 0, 0)));
        assertEquals(150_000, m.stepTimeUs(step(768, 0, 0)), "half-way between 100 and 200 ms");
        assertEquals(20_000, m.stepTimeUs(step(0, 1, 512)), "one sequence over 512 tokens of KV");
        assertEquals(25_000, m.stepTimeUs(step(0, 2, 512)), "two sequences over 512 tokens each: 1024 KV tokens");
        assertEquals(20_000, m.stepTimeUs(step(0, 1, 10)), "clamped below the smallest key");
    }

    @Test
    void mixedStepsPayTheSplitwiseFactor(@TempDir Path dir) throws IOException {
        SplitwiseModel m = model(dir, "m,gpu,500,1,1,1,1,100,20,0,2\nm,gpu,1000,1,1,1,1,200,20,0,2\n");
        // 496 prefill + 4 decodes = 500 batch tokens -> 100 ms, x 1.1 = 110 ms.
        assertEquals(110_000, m.stepTimeUs(step(496, 4, 100)));
    }

    @Test
    void unknownTriplesListWhatTheFileHas(@TempDir Path dir) throws IOException {
        Files.writeString(dir.resolve("perf_model.csv"), HEADER + "x,h100,512,1,1,1,1,1,1,0,8\n");
        ConfigException e = assertThrows(ConfigException.class,
                () -> SplitwiseModel.read(ProfileFiles.directory(dir), "perf_model.csv", "m", "gpu", 2, "t"));
        assertTrue(e.getMessage().endsWith("no rows for m/gpu/TP2; the file has x/h100/TP8"), e.getMessage());
    }

    @Test
    void theBundledFileServesLlama2On4H100s() {
        LatencyModel m = LatencyModels.resolve(new LatencySpec("profiled", "meta-llama/llama-2-70b-hf", "H100", 4, null),
                "deployment").model();
        assertTrue(m.describe().contains("llama2-70b on h100-80gb TP4"), m.describe());
        assertTrue(m.stepTimeUs(step(2048, 0, 0)) > m.stepTimeUs(step(512, 0, 0)));
    }
}
