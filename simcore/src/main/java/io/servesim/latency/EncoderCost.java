package io.servesim.latency;

import java.util.Locale;

/**
 * GPU time of the multimodal encoder over one step's items ({@link StepShape#encoderTokens()}), priced by
 * {@link EncoderLatency} on top of the step's decoder pass.
 */
public sealed interface EncoderCost {
    /** Microseconds to encode {@code items} items of {@code tokens} encoder tokens in all (0 for none). */
    double us(int items, long tokens);

    /** What prices the encoder, for the latency description. */
    String describe();

    /**
     * A fixed cost per encoder token ({@code deployment.encoder_us_per_token}): for a model whose encoder servesim cannot
     * derive, measured by the user (e.g. the TTFT of single requests with images less that of text requests of the same
     * prompt length, over the images' tokens).
     */
    record PerToken(double usPerToken) implements EncoderCost {
        public PerToken {
            if (!(usPerToken >= 0) || Double.isInfinite(usPerToken)) {
                throw new IllegalArgumentException("encoder us per token must be >= 0, was " + usPerToken);
            }
        }

        @Override
        public double us(int items, long tokens) {
            return usPerToken * tokens;
        }

        @Override
        public String describe() {
            return String.format(Locale.ROOT, "%.3g us per encoder token (deployment.encoder_us_per_token)", usPerToken);
        }
    }

    /**
     * A vision encoder's roofline on the deployment's GPUs ({@link VisionEncoder}'s FLOPs and weights, TP-sharded as
     * vLLM's Llama 4 vision model shards its linear layers over the TP group by default, {@code mm_encoder_tp_mode}
     * "weights"): the slower of its FLOPs at the GPU's 16-bit tensor peak and its weights read once per step, at the
     * roofline's cross-GPU efficiencies, plus {@link #KERNELS_PER_LAYER} kernel launches per ViT layer. The vision tower
     * stays in the checkpoint's 16-bit dtype (Llama-4-Scout's FP8 checkpoint lists every vision weight under
     * {@code quantization_config.ignore}). The TP all-reduces of the encoder's layers are not priced.
     *
     * @param encoder    the vision encoder
     * @param textHidden the language model's width (the projector's output)
     * @param gpu        the GPU
     * @param tp         GPUs the encoder is sharded over
     * @param constants  the roofline's cross-GPU constants
     * @param model      the model's name, for the description
     */
    record VisionRoofline(VisionEncoder encoder, int textHidden, GpuSpec gpu, int tp, RooflineConstants constants,
                          String model) implements EncoderCost {
        /**
         * Kernels of one ViT layer in vLLM's Llama 4 vision model: two layer norms, the fused QKV projection, attention,
         * the output projection, fc1, the GELU and fc2.
         */
        public static final int KERNELS_PER_LAYER = 8;
        /** Bytes per vision weight: the 16-bit dtype. */
        private static final int WEIGHT_BYTES = 2;

        @Override
        public double us(int items, long tokens) {
            if (tokens <= 0) {
                return 0;
            }
            double computeUs = encoder.flops(tokens, textHidden)
                    / (tp * gpu.peakFlopsPerSecond(WEIGHT_BYTES) * constants.tensorEfficiency()) * 1e6;
            double weightBytes = (double) (encoder.vitParams() + encoder.adapterParams(textHidden)) * WEIGHT_BYTES;
            double memoryUs = weightBytes / (tp * gpu.memoryBytesPerSecond() * constants.memoryEfficiency()) * 1e6;
            return Math.max(computeUs, memoryUs) + (double) encoder.layers() * KERNELS_PER_LAYER * constants.kernelLaunchUs();
        }

        @Override
        public String describe() {
            return String.format(Locale.ROOT, "%s's vision encoder (%d layers of %d, %.0f tokens per %dpx tile) by the"
                    + " roofline on %s x TP%d", model, encoder.layers(), encoder.hiddenSize(), encoder.tokensPerTile(),
                    encoder.imageSize(), gpu.name(), tp);
        }
    }
}
