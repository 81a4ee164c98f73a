package io.servesim.fidelity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.servesim.config.ConfigException;
import io.servesim.latency.BlackboxCoefficients;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReplayTest {
    /** b0 = 1000 us, b1 = 10 us per prefill token, b2 = 100 us per decode token. */
    private static final BlackboxCoefficients LINEAR = new BlackboxCoefficients(0, 0, 0, 1000, 10, 100);

    @Test
    void replaysEveryRequestWithTheRunsSettings(@TempDir Path dir) throws IOException {
        RealRun run = RealRun.read(TinyRun.write(dir));
        ReplaySetup setup = ReplaySetup.resolve(run, ReplayOptions.blackbox(LINEAR));
        assertEquals("RTXPRO6000", setup.gpu().name(), "from meta.json hardware.device_name");
        assertEquals(100, setup.sim().engine().totalKvBlocks(), "num_gpu_blocks of the run");
        assertEquals(131072, setup.sim().engine().maxModelLen(), "max_model_len null: the model's max_position_embeddings");
        Replay replay = Replay.run(run, setup);
        // Request 1 (arrives at 0): prefill of 32 tokens 1000 + 320 = 1320 us -> first token at 1.32 ms; two decode steps
        // of 1000 + 100 = 1100 us -> last token at 3.52 ms; TPOT 1.1 ms.
        ReplayRow first = replay.rows().get(0);
        assertEquals(1.32, first.simTtftMs(), 1e-9);
        assertEquals(3.52, first.simE2eMs(), 1e-9);
        assertEquals(1.1, first.simTpotMs(), 1e-9);
        assertEquals(1.5, first.realTtftMs(), 1e-6);
        assertEquals(1.25, first.realTpotMs(), 1e-6);
        // Request 2 (arrives at 10 ms, idle engine): its first 16 tokens hit request 1's cached block, so it prefills
        // 16 tokens: 1000 + 160 = 1160 us, and its one output token ends it.
        ReplayRow second = replay.rows().get(1);
        assertEquals(16, second.prefixHitTokens());
        assertEquals(10_000, second.arrivalUs());
        assertEquals(1.16, second.simTtftMs(), 1e-9);
        assertEquals(Double.NaN, second.simTpotMs());
        // Means: TTFT real (1.5 + 1.2) / 2 = 1.35, sim (1.32 + 1.16) / 2 = 1.24 -> -8.15%.
        ComparisonReport.Line ttft = replay.report().line("TTFT", "mean");
        assertEquals(1.35, ttft.realMs(), 1e-6);
        assertEquals(1.24, ttft.simMs(), 1e-9);
        assertEquals(-8.148148, ttft.diffPercent(), 1e-4);
        assertEquals(2, replay.report().compared());
    }

    @Test
    void simulatedLatenciesCountFromWhereTheMeasuredOnesDo(@TempDir Path dir) throws IOException {
        // Request 2 now arrives 1 ms after request 1, during its prefill step [0, 1320). Under async scheduling (the
        // replay's vLLM default) the step [1320, 2420) (request 1's decode: 1000 + 100) is formed before request 2 is
        // taken in at 1320; it runs in the step from 2420 with request 1's last decode, prefilling the 16 tokens its
        // cached block leaves: 1000 + 10 x 16 + 100 = 1260 us, first and only token at 3680.
        TinyRun.write(dir);
        Files.writeString(dir.resolve("workload_tiny.jsonl"), TinyRun.workload().replace("15000000", "6000000"));
        ReplaySetup setup = ReplaySetup.resolve(RealRun.read(dir), ReplayOptions.blackbox(LINEAR));
        // The run's arrival_time is on the wall clock, so its TTFT counts from queued_ts, the engine core taking the
        // request in: the simulated one from 1320, 3680 - 1320 = 2360 us (E2E the same, one token).
        ReplayRow queued = Replay.run(RealRun.read(dir), setup).rows().get(1);
        assertEquals(2.36, queued.simTtftMs(), 1e-9);
        assertEquals(2.36, queued.simE2eMs(), 1e-9);
        // With arrival_time on the engine's clock the measurement counts from arrival, and so does the simulation:
        // 3680 - 1000 = 2680 us.
        Files.writeString(dir.resolve("requests.jsonl"), TinyRun.REQUESTS.replace("1777142838.3,", "99.9995,")
                .replace("1777142838.31,", "100.0095,"));
        ReplayRow arrived = Replay.run(RealRun.read(dir), setup).rows().get(1);
        assertEquals(2.68, arrived.simTtftMs(), 1e-9);
        assertEquals(0, arrived.simQueueingMs(), "taken in at 1320 and decided on then, for the step after next");
    }

    @Test
    void theGpuComesFromHardwareWhenTheRunDoesNotRecordIt(@TempDir Path dir) throws IOException {
        TinyRun.write(dir);
        Files.writeString(dir.resolve("meta.json"), TinyRun.META.replace(
                "\"hardware\": {\"device_name\": \"NVIDIA RTX PRO 6000 Blackwell Server Edition\"}, ", ""));
        RealRun run = RealRun.read(dir);
        ConfigException missing = assertThrows(ConfigException.class, () -> ReplaySetup.resolve(run, ReplayOptions.blackbox(LINEAR)));
        assertEquals("--hardware", missing.problems().get(0).path());
        assertTrue(missing.getMessage().contains("has no hardware.device_name"), missing.getMessage());
        assertEquals("H100", ReplaySetup.resolve(run, ReplayOptions.blackbox(LINEAR).withHardware("H100")).gpu().name());
    }

    @Test
    void aContradictingHardwareFlagIsAnError(@TempDir Path dir) throws IOException {
        RealRun run = RealRun.read(TinyRun.write(dir));
        ConfigException e = assertThrows(ConfigException.class,
                () -> ReplaySetup.resolve(run, ReplayOptions.blackbox(LINEAR).withHardware("H100")));
        assertTrue(e.getMessage().startsWith("--hardware: H100 contradicts " + dir.resolve("meta.json") + " hardware.device_name"), e.getMessage());
        assertEquals("RTXPRO6000", ReplaySetup.resolve(run, ReplayOptions.blackbox(LINEAR).withHardware("RTX PRO 6000")).gpu().name());
    }

    @Test
    void blackboxWithoutCoefficientsPointsToCalibrate(@TempDir Path dir) throws IOException {
        RealRun run = RealRun.read(TinyRun.write(dir));
        ConfigException e = assertThrows(ConfigException.class,
                () -> ReplaySetup.resolve(run, new ReplayOptions("blackbox", null, null, null, null)));
        assertTrue(e.getMessage().contains("servesim calibrate"), e.getMessage());
        ConfigException kind = assertThrows(ConfigException.class,
                () -> ReplaySetup.resolve(run, new ReplayOptions("magic", null, null, null, null)));
        assertEquals("--latency-model: unknown latency model 'magic'; valid: blackbox, roofline, profiled", kind.getMessage());
    }

    @Test
    void withoutNumGpuBlocksKvCapacityIsDerivedAsVllmDoes(@TempDir Path dir) throws IOException {
        TinyRun.write(dir);
        Files.writeString(dir.resolve("meta.json"), TinyRun.META.replace("\"num_gpu_blocks\": 100,", ""));
        ReplaySetup setup = ReplaySetup.resolve(RealRun.read(dir), ReplayOptions.profiled());
        // 95.6 GiB x 0.9 = 86.04 GiB; weights 8,030,261,248 params x 2 B = 14.9575 GiB; the sampler peak
        // 9.7 x 8 seqs x 128256 x 4 B = 0.0371 GiB is below the forward peak 2048 x (4 x 4096 + 3 x 14336) x 2 B
        // = 0.2266 GiB; non-torch 0.13 GiB. Left: 70.7259 GiB at 2 MiB per 16-token block (32 layers x 8 KV heads
        // x 128 x 2 x 2 B = 128 KiB per token) = 36211.7 -> 36211 blocks.
        assertEquals(36_211, setup.sim().engine().totalKvBlocks());
        assertTrue(setup.kvSource().startsWith("derived from GPU memory"));
    }
}
