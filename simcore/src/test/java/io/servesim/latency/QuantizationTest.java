package io.servesim.latency;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.servesim.config.ConfigException;
import org.junit.jupiter.api.Test;

/** vLLM's {@code --quantization fp8} of a 16-bit checkpoint, as the roofline prices it. */
class QuantizationTest {
    private static LatencySpec spec(String kind, String gpu) {
        return new LatencySpec(kind, "meta-llama/llama-3.1-8b-instruct", gpu, 1, null, null, null, GpuCatalog.builtIn(),
                KvCacheDtype.AUTO, Quantization.FP8);
    }

    @Test
    void theDecoderLayersWeighOneByteAWeightAndTheEmbeddingsKeepTheirDtype() {
        ResolvedLatency fp8 = LatencyModels.resolve(spec("roofline", "H100"), "deployment");
        ModelArchitecture bf16 = ModelCatalog.builtIn().lookup("meta-llama/llama-3.1-8b-instruct", "x");
        ModelArchitecture q = fp8.architectureOrNull();
        // the decoder layers' weights go from 2 bytes to 1 (a byte less per parameter); embeddings and LM head stay bf16
        assertEquals(bf16.weightBytes() - bf16.alwaysActiveLayerParams(), q.weightBytes(), 1.0);
        assertEquals(bf16.kvBytesPerToken(), q.kvBytesPerToken(), "the KV cache keeps the model's dtype");
    }

    @Test
    void fp8TensorCoresWhereTheGpuHasThemAndW8a16WhereItDoesNot() {
        // H100: 1,979 dense FP8 TFLOPS; A100 (fp8_tflops 0): FP8 Marlin runs the weights at the 312 BF16 TFLOPS
        String h100 = LatencyModels.resolve(spec("roofline", "H100"), "deployment").model().describe();
        String a100 = LatencyModels.resolve(spec("roofline", "A100-80GB"), "deployment").model().describe();
        assertTrue(h100.contains("at 1979.0 TFLOPS") && !h100.contains("W8A16"), h100);
        assertTrue(a100.contains("at 312.0 TFLOPS") && a100.contains("FP8 weights as W8A16"), a100);
        StepShape decode = new StepShape();
        decode.addDecode(1000);
        long bf16Us = LatencyModels.resolve(new LatencySpec("roofline", "meta-llama/llama-3.1-8b-instruct", "H100", 1, null),
                "deployment").model().stepTimeUs(decode);
        long fp8Us = LatencyModels.resolve(spec("roofline", "H100"), "deployment").model().stepTimeUs(decode);
        assertTrue(fp8Us < 0.75 * bf16Us, "a memory-bound decode reads half the layer weights: " + fp8Us + " vs " + bf16Us);
    }

    @Test
    void theMeasuredModelsAreRefusedAndAutoTakesTheRoofline() {
        ConfigException e = assertThrows(ConfigException.class, () -> LatencyModels.resolve(spec("blackbox", "H100"),
                "deployment"));
        assertEquals("deployment.quantization", e.problems().get(0).path());
        assertEquals("roofline", LatencyModels.resolve(spec("auto", "H100"), "deployment").model().name());
    }
}
