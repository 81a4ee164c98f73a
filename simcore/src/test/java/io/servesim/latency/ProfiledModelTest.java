package io.servesim.latency;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.servesim.config.ConfigException;
import io.servesim.testing.RepoFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The LLMServingSim-format profile of Llama-3.1-8B on an RTX PRO 6000 (bundled), priced by hand from its CSVs. */
class ProfiledModelTest {
    private static ProfiledModel llama8b() {
        ResolvedLatency r = LatencyModels.resolve(new LatencySpec("profiled", "meta-llama/Llama-3.1-8B", "RTX PRO 6000", 1,
                null), "deployment");
        assertEquals(OptionalInt.empty(), r.kvBlocksFromCoefficients(), "KV capacity comes from GPU memory");
        return assertInstanceOf(ProfiledModel.class, r.model());
    }

    @Test
    void oneDecodeTokenSumsTheLayerTablesTimesThirtyTwoLayers() {
        StepShape step = new StepShape();
        step.addDecode(16);
        // dense.csv at 1 token: layernorm 2.416 (twice), qkv_proj 35.8297, rotary_emb 2.709, o_proj 25.664,
        // gate_up_proj 159.488, act_fn 2.67733, down_proj 85.5257; attention.csv (0,0,1,16) 8.35233
        // -> 325.07806 us per layer, x 32 = 10402.49792.
        // Once: embedding 3.14667 + final_layernorm 2.42167 (dense, 1 token) + lm_head 714.006 + sampler 24.746
        // (per_sequence, 1 sequence) = 744.32034. Total 11146.81826 -> 11147 us.
        assertEquals(11147, llama8b().stepTimeUs(step));
    }

    @Test
    void skewedDecodesMoveTowardTheLongestByTheBucketAlpha() {
        StepShape step = new StepShape();
        step.addDecode(16);
        step.addDecode(1008);
        // mean 512: attention.csv (0,0,2,512) = 16.7577. Longest 1008: between 768 (18.4103) and 1024 (20.6177):
        // 18.4103 + 240/256 x 2.2074 = 20.47973750. Skew rate (512-16)/(1008-16) = 0.5 -> "sr<=70%"; two decodes
        // -> "n<=2"; longest 1008 -> "kvB<=1k"; no prefill -> pc 0, "kp=0". skew_fit.csv alpha 0.1554:
        // 16.7577 + 0.1554 x (20.4797375 - 16.7577) = 16.7577 + 0.1554 x 3.7220375 = 17.3361046275.
        assertEquals(17.3361046275, llama8b().attentionUs(step), 1e-9);
    }

    @Test
    void uniformDecodesNeedNoCorrection() {
        StepShape step = new StepShape();
        step.addDecode(512);
        step.addDecode(512);
        assertEquals(16.7577, llama8b().attentionUs(step), 1e-9);
    }

    @Test
    void prefillIsPricedAtItsChunkAndContext() {
        StepShape step = new StepShape();
        step.addPrefill(2048, 0);
        // attention.csv (2048,0,0,0) = 172.609 us per layer.
        assertEquals(172.609, llama8b().attentionUs(step), 1e-9);
        StepShape withContext = new StepShape();
        withContext.addPrefill(2048, 16384);
        assertEquals(2138.07, llama8b().attentionUs(withContext), 1e-9);
        assertTrue(llama8b().stepTimeUs(withContext) > llama8b().stepTimeUs(step));
    }

    private static LatencyModel profiled(String model, int tp) {
        return LatencyModels.resolve(new LatencySpec("profiled", model, "RTX PRO 6000", tp, null), "deployment").model();
    }

    @Test
    void aMoeStepAddsTheMoeBlockAtTheExpertsItsTokensActivate() {
        StepShape step = new StepShape();
        step.addDecode(16);
        // Qwen3-30B-A3B-Instruct-2507 tp1, one decode token: dense.csv at 1 token: layernorm 2.12267 (twice), qkv_proj
        // 9.39733, qk_norm 1.936, rotary_emb 2.42133, o_proj 7.435; attention.csv (0,0,1,16) 7.69067; moe.csv at
        // (1 token, 128 x (1 - (1 - 8/128)^1) = 8 experts touched) 50.2297 -> 83.35537 us per layer, x 48 = 4001.05776.
        // Once: embedding 3.10433 + final_layernorm 2.027 + lm_head 420.224 + sampler 10.1227 = 435.47803.
        // Total 4436.53579 -> 4437 us.
        assertEquals(4437, profiled("Qwen/Qwen3-30B-A3B-Instruct-2507", 1).stepTimeUs(step));
    }

    @Test
    void theMoeTableBlendsTheActivatedExpertRowsThatBracketTheQuery() throws IOException {
        MoeTable t = MoeTable.read(ProfileCsv.read(Files.newInputStream(RepoFiles.data(
                "profiling/llmservingsim_rtxpro6000_qwen3_30b_a3b_instruct_2507/tp1/moe.csv")), "moe.csv"));
        // 3 tokens, 24 experts: row 16 between tokens 2 (134.976) and 4 (135.221) -> 135.0985; row 32 starts at 4
        // tokens, clamped below -> 234.315; halfway from 16 to 32 experts -> 135.0985 + 0.5 x 99.2165 = 184.70675
        assertEquals(184.70675, t.timeUs(3, 24), 1e-9);
        assertEquals(50.2297, t.timeUs(1, 8), 1e-9);
        assertEquals(50.2297, t.timeUs(1, 4), 1e-9, "below the fewest experts measured: that row");
    }

    @Test
    void aMoeProfileAboveTpOneIsRefusedSayingWhy() {
        ConfigException e = assertThrows(ConfigException.class, () -> profiled("Qwen/Qwen3-30B-A3B-Instruct-2507", 2));
        assertTrue(e.getMessage().contains("a MoE model's profile is used at TP 1 only"), e.getMessage());
    }

    @Test
    void qwen3DenseProfilesRunAtBothMeasuredDegrees() {
        StepShape step = new StepShape();
        step.addDecode(16);
        long tp1 = profiled("Qwen/Qwen3-32B", 1).stepTimeUs(step);
        long tp2 = profiled("Qwen/Qwen3-32B", 2).stepTimeUs(step);
        assertTrue(profiled("Qwen/Qwen3-32B", 2).describe().contains("Qwen/Qwen3-32B"));
        assertTrue(tp1 > 0 && tp2 > 0 && tp2 != tp1, tp1 + " vs " + tp2 + " us");
    }

    @Test
    void aTensorParallelDegreeWithoutTablesIsRejected() {
        ConfigException e = assertThrows(ConfigException.class, () -> LatencyModels.resolve(
                new LatencySpec("profiled", "meta-llama/llama-3.1-8b-instruct", "RTXPRO6000", 2, null), "deployment"));
        assertEquals("deployment.tp", e.problems().get(0).path());
    }

    @Test
    void aModelOrGpuWithoutAProfileListsTheBundledOnes() {
        ConfigException e = assertThrows(ConfigException.class, () -> LatencyModels.resolve(
                new LatencySpec("profiled", "meta-llama/llama-3.1-8b-instruct", "H100", 1, null), "deployment"));
        assertTrue(e.getMessage().contains("no measured profile for model meta-llama/llama-3.1-8b-instruct on H100"), e.getMessage());
        assertTrue(e.getMessage().contains("llmservingsim-rtxpro6000-llama-3.1-8b-bf16"), e.getMessage());
        assertThrows(ConfigException.class, () -> LatencyModels.resolve(
                new LatencySpec("profiled", "meta-llama/llama-3.1-8b", "RTXPRO6000", 1, new BlackboxCoefficients(1, 1, 1, 1, 1, 1)),
                "deployment"));
    }

    @Test
    void aFlatProfileDirectoryIsReadAsTpOne(@TempDir Path dir) throws IOException {
        // a copy of the shipped profile, which is flat: meta.yaml beside the tp1 tables
        Path shipped = RepoFiles.data("profiling/llmservingsim_rtxpro6000_llama31_8b_tp1");
        for (String f : new String[] {"meta.yaml", "attention.csv", "dense.csv", "per_sequence.csv", "skew_fit.csv"}) {
            Files.copy(shipped.resolve(f), dir.resolve(f));
        }
        var arch = ModelCatalog.builtIn().lookup("meta-llama/llama-3.1-8b", "model");
        var gpu = GpuCatalog.builtIn().lookup("RTXPRO6000", "hardware");
        StepShape step = new StepShape();
        step.addDecode(16);
        GpuCatalog gpus = GpuCatalog.builtIn();
        assertEquals(11147, ProfileCatalog.fromDirectory(dir, arch, gpu, gpus, 1, "deployment.profile").stepTimeUs(step));
        ConfigException missing = assertThrows(ConfigException.class,
                () -> ProfileCatalog.fromDirectory(dir, arch, gpu, gpus, 2, "deployment.profile"));
        assertTrue(missing.getMessage().contains("no profile tables for tensor parallelism 2"), missing.getMessage());
        Files.delete(dir.resolve("dense.csv"));
        ConfigException noDense = assertThrows(ConfigException.class,
                () -> ProfileCatalog.fromDirectory(dir, arch, gpu, gpus, 1, "deployment.profile"));
        assertEquals("deployment.profile: " + dir.resolve("dense.csv") + ": missing profile file", noDense.getMessage());
    }

    /**
     * A profile directory holds for the GPU and the layer shape it was measured on: the RTX PRO 6000 Llama-3.1-8B
     * profile is refused for an H100 and for Qwen3-32B (other widths and heads), and the Qwen3-30B-A3B one for Llama
     * (dense, not MoE). The base model's profile serves its instruct model (meta.yaml names meta-llama/Llama-3.1-8B).
     */
    @Test
    void aProfileDirectoryMustMatchTheGpuAndTheModelsLayers() {
        Path llama = RepoFiles.data("profiling/llmservingsim_rtxpro6000_llama31_8b_tp1");
        Path moe = RepoFiles.data("profiling/llmservingsim_rtxpro6000_qwen3_30b_a3b_instruct_2507");
        ModelCatalog models = ModelCatalog.builtIn();
        var llamaArch = models.lookup("meta-llama/llama-3.1-8b-instruct", "model");
        GpuCatalog gpus = GpuCatalog.builtIn();
        GpuSpec pro = gpus.lookup("RTXPRO6000", "hardware");
        ConfigException gpu = assertThrows(ConfigException.class, () -> ProfileCatalog.fromDirectory(llama, llamaArch,
                gpus.lookup("H100", "hardware"), gpus, 1, "deployment.profile"));
        assertEquals("deployment.profile", gpu.problems().get(0).path());
        assertTrue(gpu.getMessage().contains("measured on RTXPRO6000 (" + llama.resolve("meta.yaml") + " hardware), but the"
                + " run's GPU is H100"), gpu.getMessage());
        ConfigException qwen = assertThrows(ConfigException.class, () -> ProfileCatalog.fromDirectory(llama,
                models.lookup("qwen/qwen3-32b", "model"), pro, gpus, 1, "--profile"));
        assertEquals("--profile", qwen.problems().get(0).path());
        assertTrue(qwen.getMessage().contains("measured for meta-llama/Llama-3.1-8B"), qwen.getMessage());
        assertThrows(ConfigException.class, () -> ProfileCatalog.fromDirectory(moe, llamaArch, pro, gpus, 1, "--profile"));
        assertTrue(ProfileCatalog.fromDirectory(llama, llamaArch, pro, gpus, 1, "--profile").stepTimeUs(new StepShape()) >= 0);
    }
}
