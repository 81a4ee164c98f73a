package io.servesim.latency;

/**
 * The architecture of a decoder-only transformer as far as serving cost depends on it, parsed
 * from a Hugging Face {@code config.json} (see {@link ModelCatalog}): parameter and weight-byte counts,
 * KV-cache bytes per token, and the FLOPs of one forward pass. Covers dense GQA models (Llama,
 * Qwen, Mistral, Yi), mixture-of-experts (Mixtral, Qwen3-MoE, Llama 4 with a shared expert,
 * DeepSeek-V2 with dense prefix layers) and multi-head latent attention (DeepSeek-V2, GLM-5).
 *
 * <p>Counting conventions (they reproduce the published sizes: Llama-3.1-8B 8.03e9, Mixtral-8x7B
 * 46.7e9, Qwen3-30B-A3B 30.5e9, DeepSeek-V2-Lite 15.7e9 parameters): SwiGLU MLPs (3 matrices), two
 * RMSNorms per layer plus a final one, no biases; quantised checkpoints keep embeddings and the LM
 * head at {@link #dtypeBytes()}. Attention FLOPs use the config's head dims; MLA's absorbed-weight
 * decode kernels and DeepSeek sparse-attention indexers (GLM-5) are not modelled.
 *
 * @param name                  id shown in descriptions
 * @param modelType             HF {@code model_type}
 * @param layers                decoder layers
 * @param hiddenSize            residual stream width
 * @param vocabSize             vocabulary size
 * @param tieWordEmbeddings     LM head shares the input embedding matrix
 * @param contextLength         longest supported context, rope scaling applied ({@link ContextLength})
 * @param dtypeBytes            bytes per activation element ({@code torch_dtype})
 * @param kvDtypeBytes          bytes per KV-cache element: {@code dtypeBytes} under vLLM's {@code kv_cache_dtype} "auto",
 *                              1 under "fp8" ({@link #withKvCacheBytes})
 * @param weightBytesPerParam   bytes per linear-layer weight (1 for FP8/INT8, 0.5 for 4-bit quantisation)
 * @param attention             attention shape
 * @param feedForward           MLP / MoE shape
 * @param vision                the vision encoder ({@code vision_config}), or null for a text-only model or a vision
 *                              config of another layout
 * @param mtpLayers             multi-token-prediction layers the checkpoint carries ({@code num_nextn_predict_layers}:
 *                              DeepSeek-V3, GLM-4.5 and others; 0 without), which vLLM's {@code method: mtp} drafts with
 */
public record ModelArchitecture(String name, String modelType, int layers, int hiddenSize, int vocabSize,
                                boolean tieWordEmbeddings, ContextLength contextLength, int dtypeBytes, int kvDtypeBytes,
                                double weightBytesPerParam, Attention attention, FeedForward feedForward,
                                VisionEncoder vision, int mtpLayers) {

    /** A text-only architecture. */
    public ModelArchitecture(String name, String modelType, int layers, int hiddenSize, int vocabSize,
                             boolean tieWordEmbeddings, ContextLength contextLength, int dtypeBytes, int kvDtypeBytes,
                             double weightBytesPerParam, Attention attention, FeedForward feedForward) {
        this(name, modelType, layers, hiddenSize, vocabSize, tieWordEmbeddings, contextLength, dtypeBytes, kvDtypeBytes,
                weightBytesPerParam, attention, feedForward, null, 0);
    }

    /**
     * Attention shape. Standard (GQA/MHA) attention has {@code kvLoraRank == 0} and
     * {@code qkHeadDim == vHeadDim == headDim}; multi-head latent attention (DeepSeek-V2) caches one
     * compressed latent of {@code kvLoraRank + qkRopeHeadDim} elements per token and layer.
     */
    public record Attention(int heads, int kvHeads, int headDim, int qkHeadDim, int vHeadDim,
                            int qLoraRank, int kvLoraRank, int qkRopeHeadDim) {
        public boolean isMla() {
            return kvLoraRank > 0;
        }

        /** Projection parameters (Q, K, V, O; MLA: low-rank Q/KV projections and their norms) of one layer. */
        public long paramsPerLayer(int hiddenSize) {
            long h = hiddenSize;
            if (!isMla()) {
                return h * heads * headDim * 2 + h * kvHeads * headDim * 2L;
            }
            long q = qLoraRank > 0
                    ? h * qLoraRank + qLoraRank + (long) qLoraRank * heads * qkHeadDim
                    : h * heads * qkHeadDim;
            long kv = h * (kvLoraRank + qkRopeHeadDim) + kvLoraRank
                    + (long) kvLoraRank * heads * (qkHeadDim - qkRopeHeadDim + vHeadDim);
            return q + kv + (long) heads * vHeadDim * h;
        }

        /** KV-cache elements per token and layer on one GPU of a TP group (KV heads shard; fewer heads than GPUs replicate; an MLA latent replicates). */
        public long kvElementsPerTokenPerLayer(int tp) {
            return isMla() ? kvLoraRank + qkRopeHeadDim : 2L * Math.max(1, kvHeads / tp) * headDim;
        }
    }

    /**
     * MLP shape. Dense layers use one SwiGLU MLP of {@code denseIntermediateSize}; MoE layers route
     * each token to {@code expertsPerToken} of {@code experts} SwiGLU experts of
     * {@code expertIntermediateSize}, plus always-active shared experts of total width
     * {@code sharedIntermediateSize} and a router of {@code experts x hidden}.
     */
    public record FeedForward(int denseLayers, int denseIntermediateSize, int moeLayers, int experts,
                              int expertsPerToken, int expertIntermediateSize, int sharedIntermediateSize) {
        public boolean isMoe() {
            return moeLayers > 0;
        }

        /**
         * Expected distinct routed experts of one MoE layer that {@code tokens} tokens touch under a balanced router,
         * each token taking {@code expertsPerToken} of the {@code experts}: an expert is missed by one token with
         * probability 1 - k / E, so E x (1 - (1 - k / E)^tokens), exactly k at one token and E in the limit (0 for a
         * dense model). Counting token-expert pairs instead, min(tokens x k, E), reaches every expert of a 128-expert
         * top-8 layer at 16 tokens, where the expectation is 82; LLMServingSim replaced that count with this one
         * after it priced a real run's 16-sequence decode steps 56% long ({@code serving/core/gate_function.py
         * _balanced_route_ep}, casys-kaist/LLMServingSim@0d3de681).
         */
        public double expectedActiveExperts(double tokens) {
            if (!isMoe() || tokens <= 0) {
                return 0;
            }
            return experts * (1.0 - StrictMath.pow(1.0 - (double) expertsPerToken / experts, tokens));
        }
    }

    /**
     * Whether {@code other} has this model's serving shape: the same model type, layers, widths, vocabulary, embedding
     * tying, dtypes, attention and feed-forward (names and context length aside), so that one's measured step times
     * stand for the other's (an instruct model and its base model; Llama 3.1 and 3.3 70B).
     */
    public boolean sameShape(ModelArchitecture other) {
        return other != null && modelType.equals(other.modelType) && layers == other.layers && hiddenSize == other.hiddenSize
                && vocabSize == other.vocabSize && tieWordEmbeddings == other.tieWordEmbeddings && dtypeBytes == other.dtypeBytes
                && kvDtypeBytes == other.kvDtypeBytes
                && weightBytesPerParam == other.weightBytesPerParam && attention.equals(other.attention)
                && feedForward.equals(other.feedForward);
    }

    public long embeddingParams() {
        return (long) vocabSize * hiddenSize;
    }

    public long lmHeadParams() {
        return tieWordEmbeddings ? 0 : embeddingParams();
    }

    /** Parameters of one routed expert in one layer. */
    public long expertParams() {
        return 3L * hiddenSize * feedForward.expertIntermediateSize();
    }

    /** All routed-expert parameters (every expert of every MoE layer). */
    public long routedExpertParams() {
        return (long) feedForward.moeLayers() * feedForward.experts() * expertParams();
    }

    /** Parameters every token uses inside the decoder layers: attention, dense MLPs, shared experts, routers, norms. */
    public long alwaysActiveLayerParams() {
        FeedForward f = feedForward;
        long h = hiddenSize;
        return layers * attention.paramsPerLayer(hiddenSize)
                + f.denseLayers() * 3L * h * f.denseIntermediateSize()
                + f.moeLayers() * (3L * h * f.sharedIntermediateSize() + (long) f.experts() * h)
                + layers * 2L * h + h;
    }

    /** Total parameter count. */
    public long parameterCount() {
        return embeddingParams() + lmHeadParams() + alwaysActiveLayerParams() + routedExpertParams();
    }

    /** Bytes of all weights (quantised layers at {@link #weightBytesPerParam()}, embeddings/LM head at {@link #dtypeBytes()}). */
    public double weightBytes() {
        return (embeddingParams() + lmHeadParams()) * (double) dtypeBytes
                + (alwaysActiveLayerParams() + routedExpertParams()) * weightBytesPerParam;
    }

    /**
     * Weight bytes a forward pass reads whatever the batch: decoder layers except routed experts,
     * plus the LM head (the tied embedding when tied); input-embedding lookups read only a few rows.
     */
    public double alwaysReadWeightBytes() {
        return embeddingParams() * (double) dtypeBytes + alwaysActiveLayerParams() * weightBytesPerParam;
    }

    /** Bytes of one routed expert in one layer. */
    public double expertBytes() {
        return expertParams() * weightBytesPerParam;
    }

    /**
     * This architecture with its KV cache stored at {@code bytes} per element (vLLM's {@code --kv-cache-dtype}: fp8
     * stores each key and value element in one byte, {@code vllm/v1/attention} backends' fp8 KV cache).
     */
    public ModelArchitecture withKvCacheBytes(int bytes) {
        return new ModelArchitecture(name, modelType, layers, hiddenSize, vocabSize, tieWordEmbeddings, contextLength,
                dtypeBytes, bytes, weightBytesPerParam, attention, feedForward, vision, mtpLayers);
    }

    /** This architecture with its linear layers' weights at {@code bytes} per weight (vLLM's {@code --quantization fp8}: 1). */
    public ModelArchitecture withWeightBytes(double bytes) {
        return new ModelArchitecture(name, modelType, layers, hiddenSize, vocabSize, tieWordEmbeddings, contextLength,
                dtypeBytes, kvDtypeBytes, bytes, attention, feedForward, vision, mtpLayers);
    }

    /** KV-cache bytes per token over the whole model and TP group: 2 x layers x kvHeads x headDim x dtype (MLA: layers x latent x dtype). */
    public long kvBytesPerToken() {
        long perLayer = attention.isMla() ? attention.kvLoraRank() + attention.qkRopeHeadDim()
                : 2L * attention.kvHeads() * attention.headDim();
        return layers * perLayer * kvDtypeBytes;
    }

    /** KV-cache bytes per token held by each GPU of a TP group of {@code tp} (see {@link Attention#kvElementsPerTokenPerLayer}). */
    public long kvBytesPerTokenPerGpu(int tp) {
        return layers * attention.kvElementsPerTokenPerLayer(tp) * kvDtypeBytes;
    }

    /** Matmul FLOPs per token in the decoder layers (2 per active weight: attention projections, dense MLPs, shared + top-k experts, router). */
    public double linearFlopsPerToken() {
        long active = alwaysActiveLayerParams() - layers * 2L * hiddenSize - hiddenSize
                + (long) feedForward.moeLayers() * feedForward.expertsPerToken() * expertParams();
        return 2.0 * active;
    }

    /** LM-head FLOPs per sequence in a step (vLLM computes logits only for each sequence's last scheduled token). */
    public double lmHeadFlopsPerSequence() {
        return 2.0 * hiddenSize * vocabSize;
    }

    /** Attention FLOPs (QK^T and AV) per (query token, key token) pair, summed over layers. */
    public double attentionFlopsPerPair() {
        return 2.0 * attention.heads() * (attention.qkHeadDim() + attention.vHeadDim()) * layers;
    }
}
