package io.servesim.latency;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.servesim.config.ConfigException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LatencyModelsTest {
    private static final BlackboxCoefficients COEFFS = new BlackboxCoefficients(1, 2, 3, 4, 5, 6);

    private static LatencySpec spec(String kind, String model, String gpu, int tp) {
        return new LatencySpec(kind, model, gpu, tp, null);
    }

    private static ConfigException fails(LatencySpec spec) {
        return assertThrows(ConfigException.class, () -> LatencyModels.resolve(spec, "deployment"));
    }

    @Test
    void autoUsesTrainedCoefficientsWhenTheTripleExists() {
        ResolvedLatency r = LatencyModels.resolve(spec("auto", "meta-llama/Llama-3.1-8B-Instruct", "H100-SXM", 1), "deployment");
        assertInstanceOf(BlackboxModel.class, r.model());
        assertEquals(OptionalInt.of(29205), r.kvBlocksFromCoefficients());
        assertEquals("H100", r.gpuOrNull().name());
        assertEquals(32, r.architectureOrNull().layers(), "bundled architecture comes along for KV sizing");
    }

    @Test
    void nullKindMeansAutoAndFileStemFindsTrainedCoefficients() {
        ResolvedLatency r = LatencyModels.resolve(spec(null, "llama-3.1-8b-instruct", "A100", 2), "deployment");
        assertEquals(8001.630597822392, ((BlackboxModel) r.model()).coefficients().b0());
    }

    @Test
    void autoFallsBackToRooflineWithoutCoefficients() {
        ResolvedLatency r = LatencyModels.resolve(spec("auto", "qwen/qwen3-30b-a3b", "H100", 1), "deployment");
        assertInstanceOf(RooflineModel.class, r.model());
        assertEquals(OptionalInt.empty(), r.kvBlocksFromCoefficients());
    }

    @Test
    void blackboxOnlyModelNeedsNoBundledArchitecture() {
        ResolvedLatency r = LatencyModels.resolve(spec("blackbox", "ibm-granite/granite-3.1-8b-instruct", "H100", 2), "deployment");
        assertInstanceOf(BlackboxModel.class, r.model());
        assertNull(r.architectureOrNull());
        assertEquals(OptionalInt.of(105497), r.kvBlocksFromCoefficients());
    }

    @Test
    void anAliasWithItsOwnCoefficientsUsesThemAndTheSharedArchitecture() {
        // llama-3.3-70b-instruct is trained on H100 TP4 and shares the bundled llama-3.1-70b config
        ResolvedLatency r = LatencyModels.resolve(spec("auto", "meta-llama/Llama-3.3-70B-Instruct", "H100", 4), "deployment");
        assertInstanceOf(BlackboxModel.class, r.model());
        assertTrue(r.model().describe().contains("meta-llama/llama-3.3-70b-instruct on H100 TP4"), r.model().describe());
        assertEquals(80, r.architectureOrNull().layers());
    }

    @Test
    void blackboxWithoutTrainedTripleListsTheTriplesThatExist() {
        ConfigException e = fails(spec("blackbox", "meta-llama/llama-3.1-8b-instruct", "H100", 8));
        assertEquals("deployment.latency_model", e.problems().get(0).path());
        assertTrue(e.getMessage().contains("no trained blackbox coefficients for (model meta-llama/llama-3.1-8b-instruct, GPU H100, tp 8)"),
                e.getMessage());
        assertTrue(e.getMessage().contains("trained for this model: A100-80GB tp 1, A100-80GB tp 2, A100-80GB tp 4, H100 tp 1, H100 tp 2, H100 tp 4"),
                e.getMessage());
    }

    @Test
    void blackboxForAnUntrainedModelSaysSo() {
        ConfigException e = fails(spec("blackbox", "qwen/qwen3-30b-a3b", "H100", 1));
        assertTrue(e.getMessage().contains("trained for this model: none"), e.getMessage());
    }

    @Test
    void explicitCoefficientsNeedNoModelOrGpu() {
        ResolvedLatency r = LatencyModels.resolve(new LatencySpec("blackbox", null, null, 1, COEFFS), "deployment");
        assertEquals(COEFFS, ((BlackboxModel) r.model()).coefficients());
        assertNull(r.gpuOrNull());
        assertNull(r.architectureOrNull());
        assertEquals(OptionalInt.empty(), r.kvBlocksFromCoefficients());
    }

    @Test
    void explicitCoefficientsMustBeNonNegative() {
        ConfigException e = fails(new LatencySpec("auto", null, null, 1, new BlackboxCoefficients(1, 2, 3, 4, -5, 6)));
        assertEquals("deployment.coefficients.b1", e.problems().get(0).path());
    }

    @Test
    void explicitCoefficientsWithRooflineAreRejected() {
        ConfigException e = fails(new LatencySpec("roofline", "qwen/qwen3-14b", "H100", 1, COEFFS));
        assertEquals("deployment.coefficients", e.problems().get(0).path());
    }

    @Test
    void rooflineTpMustDivideAttentionHeads() {
        ConfigException e = fails(spec("roofline", "meta-llama/llama-3.1-8b-instruct", "H100", 3));
        assertEquals("deployment.tp", e.problems().get(0).path());
        assertTrue(e.getMessage().contains("tp 3 must divide the 32 attention heads"), e.getMessage());
    }

    @Test
    void rooflineNeedsAKnownModelAndGpu() {
        ConfigException unknownModel = fails(spec("roofline", "acme/giant-1t", "H100", 1));
        assertEquals("deployment.model", unknownModel.problems().get(0).path());
        assertTrue(unknownModel.getMessage().contains("bundled: codellama/codellama-34b-instruct-hf"), unknownModel.getMessage());
        ConfigException noGpu = fails(spec("roofline", "qwen/qwen3-14b", null, 1));
        assertEquals("deployment.hardware", noGpu.problems().get(0).path());
        assertTrue(noGpu.getMessage().contains("known: H100, H200"), noGpu.getMessage());
    }

    @Test
    void autoWithAnUnknownModelExplainsBothPaths() {
        ConfigException e = fails(spec("auto", "acme/giant-1t", "H100", 1));
        assertEquals("deployment.model", e.problems().get(0).path());
        assertTrue(e.getMessage().startsWith("deployment.model: no trained blackbox coefficients for (acme/giant-1t, H100, tp 1)"),
                e.getMessage());
    }

    @Test
    void invalidKindTpAndGpuAreReportedAtTheirPaths() {
        ConfigException kind = fails(spec("magic", "qwen/qwen3-14b", "H100", 1));
        assertEquals("deployment.latency_model: unknown latency model 'magic'; valid: auto, blackbox, roofline, profiled", kind.getMessage());
        assertEquals("deployment.tp", fails(spec("roofline", "qwen/qwen3-14b", "H100", 0)).problems().get(0).path());
        assertEquals("deployment.hardware", fails(spec("roofline", "qwen/qwen3-14b", "TPUv5", 1)).problems().get(0).path());
    }

    @Test
    void rooflineAcceptsAConfigJsonPath(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("config.json");
        Files.writeString(file, "{\"num_hidden_layers\": 2, \"hidden_size\": 256, \"num_attention_heads\": 4,"
                + " \"num_key_value_heads\": 2, \"intermediate_size\": 512, \"vocab_size\": 1000}");
        ResolvedLatency r = LatencyModels.resolve(spec("auto", file.toString(), "L40S", 2), "deployment");
        assertInstanceOf(RooflineModel.class, r.model());
        assertEquals(256, r.architectureOrNull().hiddenSize());
    }
}
