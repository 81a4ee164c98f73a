package io.servesim.run;

import io.servesim.config.ConfigException;
import io.servesim.engine.EngineConfig;
import io.servesim.engine.encoder.EncoderBudget;
import io.servesim.latency.EncoderCost;
import io.servesim.latency.EncoderLatency;
import io.servesim.latency.LatencySpec;
import io.servesim.latency.ModelArchitecture;
import io.servesim.latency.ResolvedLatency;
import io.servesim.latency.RooflineConstants;
import io.servesim.workload.WorkloadSpec;
import java.util.List;

/**
 * The multimodal encoder of engines whose workload sends image, audio or video items: the encoder budget per step and
 * cache size vLLM derives ({@link EncoderBudget}: from {@code max_num_batched_tokens} and the largest item, here the
 * largest the workload can send, within {@code max_model_len}) and the encoder's GPU time added to the steps that
 * encode ({@link EncoderLatency}): {@code deployment.encoder_us_per_token} when given, else the roofline of the model's
 * vision encoder ({@link EncoderCost.VisionRoofline}). The SGLang core has no encoder budget; its embedding cache
 * ({@code engine.SglangEmbeddingCache}) holds SGLang's default 100 MiB of embeddings. A workload without items leaves the
 * engines as they are.
 */
final class EncoderPlan {
    private static final String US_PER_TOKEN = "deployment.encoder_us_per_token";

    private EncoderPlan() {
    }

    /**
     * {@code engines} with the encoder, or unchanged (with the problems added) when the workload sends no items (an
     * encoder cost given then is refused: it would price nothing) or the encoder cannot be priced.
     *
     * @param expertParallel whether the engines are ranks of an expert-parallel group (refused with items)
     */
    static RunPlan.Engines apply(RunPlan.Engines engines, WorkloadSpec workload, LatencySpec spec, ResolvedLatency resolved,
                                 int tp, FleetKeys keys, boolean expertParallel, List<ConfigException.Problem> problems) {
        int largest = workload == null ? 0 : workload.largestMediaItemTokens();
        if (largest == 0) {
            if (spec.encoderUsPerToken() >= 0) {
                problems.add(new ConfigException.Problem(US_PER_TOKEN, "no client of the workload sends image, audio or"
                        + " video items (workload clients[].multimodal), so no encoder runs and this cost would price"
                        + " nothing; remove it"));
            }
            return engines;
        }
        EngineConfig e = engines.engine();
        if (expertParallel) {
            problems.add(new ConfigException.Problem("deployment.ep", "true, but the workload sends image, audio or video"
                    + " items (workload clients[].multimodal) and an expert-parallel group's lockstep step does not price"
                    + " the encoder; valid with them: false"));
            return engines;
        }
        EncoderCost cost = cost(workload, spec, resolved, tp, problems);
        if (cost == null) {
            return engines;
        }
        EncoderBudget budget;
        if (e.isSglang()) {
            ModelArchitecture arch = resolved.architectureOrNull();
            if (arch == null) {
                problems.add(new ConfigException.Problem(keys.deployment() + ".model", "the SGLang core's multimodal"
                        + " embedding cache is sized in bytes of the model's embeddings: a bundled model or a config.json"
                        + " is needed with workload clients[].multimodal"));
                return engines;
            }
            budget = new EncoderBudget(0, sglangCacheTokens(arch));
        } else {
            int item = e.maxModelLen() > 0 ? Math.min(largest, e.maxModelLen()) : largest;
            budget = EncoderBudget.derive(e.maxNumBatchedTokens(), item, 0, 0);
        }
        return new RunPlan.Engines(e.withEncoder(budget), engines.kvCapacitySource(),
                new EncoderLatency(engines.latency(), cost));
    }

    /** SGLang's default {@code SGLANG_VLM_CACHE_SIZE_MB} ({@code python/sglang/srt/environ.py}), in bytes. */
    static final long SGLANG_VLM_CACHE_BYTES = 100L << 20;

    /**
     * The SGLang core's embedding cache in tokens: {@code SGLANG_VLM_CACHE_SIZE_MB} over the bytes of one token's
     * embedding (the language model's hidden size in its dtype).
     */
    static int sglangCacheTokens(ModelArchitecture arch) {
        return (int) (SGLANG_VLM_CACHE_BYTES / ((long) arch.hiddenSize() * arch.dtypeBytes()));
    }

    private static EncoderCost cost(WorkloadSpec workload, LatencySpec spec, ResolvedLatency resolved, int tp,
                                    List<ConfigException.Problem> problems) {
        if (spec.encoderUsPerToken() >= 0) {
            return new EncoderCost.PerToken(spec.encoderUsPerToken());
        }
        ModelArchitecture arch = resolved.architectureOrNull();
        String why = null;
        if (arch == null) {
            why = "the model's architecture is not known (deployment.model is not a bundled model or a config.json)";
        } else if (arch.vision() == null) {
            why = arch.name() + "'s config.json has no vision_config in the Llama 4 layout (hidden_size, num_hidden_layers,"
                    + " intermediate_size, image_size, patch_size)";
        } else if (workload.sendsAudioOrVideo()) {
            why = "some are audio or video, which " + arch.name() + "'s vision_config (images only) cannot price";
        } else if (resolved.gpuOrNull() == null) {
            why = "the GPU is not known (deployment.hardware)";
        }
        if (why != null) {
            problems.add(new ConfigException.Problem(US_PER_TOKEN, "required: the workload's clients send image, audio or"
                    + " video items (workload clients[].multimodal), and " + why + ", so the encoder's cost cannot be"
                    + " derived; give the encoder's GPU time per item token, in [0, 1000000] us"));
            return null;
        }
        return new EncoderCost.VisionRoofline(arch.vision(), arch.hiddenSize(), resolved.gpuOrNull(), tp,
                RooflineConstants.bundled(), arch.name());
    }
}
