package io.servesim.latency;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ModelArchitectureTest {
    private static ModelArchitecture model(String id) {
        return ModelCatalog.builtIn().lookup(id, "deployment.model");
    }

    @Test
    void llama31_8bFieldsAndParameterCount() {
        ModelArchitecture m = model("meta-llama/llama-3.1-8b-instruct");
        assertEquals(32, m.layers());
        assertEquals(4096, m.hiddenSize());
        assertEquals(32, m.attention().heads());
        assertEquals(8, m.attention().kvHeads());
        assertEquals(128, m.attention().headDim());
        assertEquals(14336, m.feedForward().denseIntermediateSize());
        assertEquals(128256, m.vocabSize());
        assertFalse(m.tieWordEmbeddings());
        assertEquals(2, m.dtypeBytes());
        assertEquals(2.0, m.weightBytesPerParam());
        assertEquals(131072, m.contextLength().tokens());
        // embeddings 128256 x 4096 = 525,336,576, and the same again for the untied LM head;
        // per layer: q,o 2 x 4096^2 = 33,554,432; k,v 2 x 4096 x 8 x 128 = 8,388,608;
        //   MLP 3 x 4096 x 14336 = 176,160,768; 2 norms 8,192 -> 218,112,000; x 32 = 6,979,584,000;
        // final norm 4,096 -> 2 x 525,336,576 + 6,979,584,000 + 4,096 = 8,030,261,248 (HF: 8.03e9)
        assertEquals(8_030_261_248L, m.parameterCount());
        assertEquals(8.03e9, m.parameterCount(), 0.01 * 8.03e9);
        assertEquals(2 * 8_030_261_248.0, m.weightBytes());
    }

    @Test
    void llama31_8bKvBytesPerTokenAndTensorParallelSharding() {
        ModelArchitecture m = model("meta-llama/llama-3.1-8b-instruct");
        // 2 x 32 layers x 8 KV heads x 128 x 2 bytes = 131,072 (128 KiB)
        assertEquals(131_072, m.kvBytesPerToken());
        assertEquals(131_072, m.kvBytesPerTokenPerGpu(1));
        // 8 KV heads over 2 GPUs: 4 each -> 65,536; over 8 GPUs: 1 each -> 16,384
        assertEquals(65_536, m.kvBytesPerTokenPerGpu(2));
        assertEquals(16_384, m.kvBytesPerTokenPerGpu(8));
        // 16 GPUs > 8 KV heads: each GPU keeps one replicated head, still 16,384
        assertEquals(16_384, m.kvBytesPerTokenPerGpu(16));
    }

    @Test
    void llama31_8bFlops() {
        ModelArchitecture m = model("meta-llama/llama-3.1-8b-instruct");
        // 2 x (6,979,584,000 - 32 x 8,192 norm weights) = 2 x 6,979,321,856
        assertEquals(13_958_643_712.0, m.linearFlopsPerToken());
        // 2 x 4096 x 128256
        assertEquals(1_050_673_152.0, m.lmHeadFlopsPerSequence());
        // 2 x 32 heads x (128 + 128) x 32 layers
        assertEquals(524_288.0, m.attentionFlopsPerPair());
    }

    @Test
    void mixtralCountsAllExpertsButComputesWithTwo() {
        ModelArchitecture m = model("mistralai/mixtral-8x7b-v0.1");
        assertEquals(8, m.feedForward().experts());
        assertEquals(2, m.feedForward().expertsPerToken());
        assertEquals(32, m.feedForward().moeLayers());
        // published size 46.7e9
        assertEquals(46.7e9, m.parameterCount(), 0.01 * 46.7e9);
        // per token: attention 41,943,040 + router 32,768 + 2 experts x 176,160,768 = 394,297,344 per layer
        // x 32 = 12,617,515,008 weights -> x 2 FLOPs
        assertEquals(2.0 * 12_617_515_008L, m.linearFlopsPerToken());
    }

    @Test
    void qwen3MoeUsesMoeIntermediateSizeAndExplicitHeadDim() {
        ModelArchitecture m = model("Qwen/Qwen3-30B-A3B");
        assertEquals(128, m.attention().headDim(), "head_dim 128 although hidden/heads = 64");
        assertEquals(128, m.feedForward().experts());
        assertEquals(8, m.feedForward().expertsPerToken());
        assertEquals(768, m.feedForward().expertIntermediateSize());
        assertEquals(48, m.feedForward().moeLayers());
        // distinct experts touched: 128 x (1 - (120/128)^n): k at one token, 15.5 at two (one shared in 8/128 x 8 = 0.5
        // expected), 82.42 at 16 where the pairs would name all 128, 128 in the limit; none for no token
        assertEquals(8.0, m.feedForward().expectedActiveExperts(1), 1e-12);
        assertEquals(15.5, m.feedForward().expectedActiveExperts(2), 1e-12);
        assertEquals(82.4225, m.feedForward().expectedActiveExperts(16), 1e-4);
        assertEquals(128.0, m.feedForward().expectedActiveExperts(1e6), 1e-9);
        assertEquals(0.0, m.feedForward().expectedActiveExperts(0));
        assertEquals(0, m.feedForward().denseLayers());
        assertEquals(30.5e9, m.parameterCount(), 0.01 * 30.5e9);
        // 2 x 48 layers x 4 KV heads x 128 x 2 bytes
        assertEquals(98_304, m.kvBytesPerToken());
    }

    @Test
    void deepseekV2LiteIsMlaWithADenseFirstLayerAndSharedExperts() {
        ModelArchitecture m = model("deepseek-ai/DeepSeek-V2-Lite");
        assertTrue(m.attention().isMla());
        assertEquals(1, m.feedForward().denseLayers());
        assertEquals(26, m.feedForward().moeLayers());
        assertEquals(64, m.feedForward().experts());
        assertEquals(2 * 1408, m.feedForward().sharedIntermediateSize());
        assertEquals(15.7e9, m.parameterCount(), 0.01 * 15.7e9);
        // MLA caches one latent: (kv_lora_rank 512 + rope 64) x 27 layers x 2 bytes, on every TP rank
        assertEquals(31_104, m.kvBytesPerToken());
        assertEquals(31_104, m.kvBytesPerTokenPerGpu(4));
    }

    @Test
    void llama4ScoutReadsTextConfigAndTopLevelFp8Quantisation() {
        ModelArchitecture m = model("redhatai/llama-4-scout-17b-16e-instruct-fp8-dynamic");
        assertEquals(48, m.layers());
        assertEquals(5120, m.hiddenSize());
        assertEquals(16, m.feedForward().experts());
        assertEquals(1, m.feedForward().expertsPerToken());
        assertEquals(48, m.feedForward().moeLayers());
        assertEquals(8192, m.feedForward().sharedIntermediateSize(), "Llama 4 shared expert");
        assertEquals(1.0, m.weightBytesPerParam(), "compressed-tensors 8-bit weights");
        assertEquals(2, m.dtypeBytes());
        // text model ~108e9 total (109e9 with the vision tower), 17e9 active
        assertEquals(108e9, m.parameterCount(), 0.01 * 108e9);
        double activeParams = m.linearFlopsPerToken() / 2 + 2 * m.embeddingParams();
        assertEquals(17e9, activeParams, 0.02 * 17e9);
    }

    @Test
    void glmFp8IsMlaWithThreeDenseLayers() {
        ModelArchitecture m = model("zai-org/glm-5.2-fp8");
        assertTrue(m.attention().isMla());
        assertEquals(256, m.attention().qkHeadDim());
        assertEquals(3, m.feedForward().denseLayers());
        assertEquals(75, m.feedForward().moeLayers());
        assertEquals(1.0, m.weightBytesPerParam());
        // (512 + 64) x 78 layers x 2 bytes (KV stays bfloat16)
        assertEquals(89_856, m.kvBytesPerToken());
    }
}
