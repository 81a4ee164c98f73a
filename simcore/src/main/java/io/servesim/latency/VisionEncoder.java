package io.servesim.latency;

/**
 * A model's vision encoder as its {@code config.json}'s {@code vision_config} gives it, in the Llama 4 layout
 * ({@code Llama4VisionConfig} in transformers; {@code Llama4VisionModel} in {@code vllm/model_executor/models/mllama4.py}):
 * a ViT of {@code layers} pre-norm layers (attention with Q, K, V and O projections of {@code hidden x hidden}, a GELU
 * MLP of {@code hidden -> intermediate -> hidden}) over square tiles of {@code imageSize} pixels cut into
 * {@code patchSize}-pixel patches, whose output a pixel shuffle of ratio r merges 1 / r^2 patches into one token, and a
 * vision adapter MLP ({@code hidden / r^2 -> projectorInput -> projectorOutput}) and the multimodal projector
 * ({@code visionOutput -> text hidden}) map to the language model. Llama-4-Scout: 34 layers of width 1408 and MLP 5632,
 * 336-pixel tiles of 14-pixel patches (576 patches), r = 0.5: 144 tokens per tile.
 *
 * @param hiddenSize          ViT width
 * @param layers              ViT layers
 * @param intermediateSize    ViT MLP width
 * @param imageSize           tile side, pixels
 * @param patchSize           patch side, pixels
 * @param pixelShuffleRatio   r (1: every patch is a token)
 * @param projectorInputDim   the adapter MLP's width (0: no adapter)
 * @param projectorOutputDim  the adapter MLP's output width
 * @param visionOutputDim     the multimodal projector's input width (0: no projector)
 */
public record VisionEncoder(int hiddenSize, int layers, int intermediateSize, int imageSize, int patchSize,
                            double pixelShuffleRatio, int projectorInputDim, int projectorOutputDim, int visionOutputDim) {
    public VisionEncoder {
        if (hiddenSize < 1 || layers < 1 || intermediateSize < 1 || patchSize < 1 || imageSize < patchSize
                || !(pixelShuffleRatio > 0 && pixelShuffleRatio <= 1)) {
            throw new IllegalArgumentException("invalid vision encoder " + hiddenSize + "/" + layers + "/"
                    + intermediateSize + "/" + imageSize + "/" + patchSize + "/" + pixelShuffleRatio);
        }
    }

    /** Patches of one tile: (imageSize / patchSize)^2. */
    public long patchesPerTile() {
        long side = imageSize / patchSize;
        return side * side;
    }

    /** Encoder (placeholder) tokens one tile yields: its patches x r^2. */
    public double tokensPerTile() {
        return patchesPerTile() * pixelShuffleRatio * pixelShuffleRatio;
    }

    /** Weights of the ViT's layers: layers x (4 hidden^2 + 2 hidden x intermediate). */
    public long vitParams() {
        long h = hiddenSize;
        return layers * (4 * h * h + 2 * h * intermediateSize);
    }

    /** Weights applied once per output token: the adapter MLP and the projector to a language model of {@code textHidden}. */
    public long adapterParams(int textHidden) {
        long merged = Math.round(hiddenSize / (pixelShuffleRatio * pixelShuffleRatio));
        long adapter = projectorInputDim <= 0 ? 0
                : merged * projectorInputDim + (long) projectorInputDim * projectorOutputDim;
        long projector = visionOutputDim <= 0 ? 0 : (long) visionOutputDim * textHidden;
        return adapter + projector;
    }

    /**
     * FLOPs of encoding {@code tokens} encoder tokens for a language model of {@code textHidden}: the ViT's weights at
     * 2 FLOPs per weight and patch, its attention over each tile's patches (Q K^T and A V: 4 x patches^2 x hidden per
     * layer and tile), and the adapter and projector at 2 FLOPs per weight and token. Tiles are tokens / tokensPerTile.
     */
    public double flops(long tokens, int textHidden) {
        double tiles = tokens / tokensPerTile();
        double patches = tiles * patchesPerTile();
        double n = patchesPerTile();
        return 2.0 * vitParams() * patches + 4.0 * layers * n * n * hiddenSize * tiles
                + 2.0 * adapterParams(textHidden) * tokens;
    }
}
