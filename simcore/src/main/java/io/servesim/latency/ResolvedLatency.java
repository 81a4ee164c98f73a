package io.servesim.latency;

import java.util.OptionalInt;

/**
 * The outcome of {@link LatencyModels#resolve}: the latency model to run, plus what the deployment
 * needs to size its KV cache.
 *
 * @param model                     the latency model
 * @param kvBlocksFromCoefficients  KV blocks vLLM reported in the runs the trained coefficients were
 *                                  fitted on ({@code total_kv_blocks}); empty for roofline and for
 *                                  explicit coefficients
 * @param architectureOrNull        the model's architecture when the model is bundled or given as a
 *                                  config.json (needed by {@link KvCapacity}), else null
 * @param gpuOrNull                 the GPU when one was named, else null
 * @param note                      what a user should know of how the model was chosen (empty when nothing): trained
 *                                  coefficients taken from another model of the same architecture
 */
public record ResolvedLatency(LatencyModel model, OptionalInt kvBlocksFromCoefficients,
                              ModelArchitecture architectureOrNull, GpuSpec gpuOrNull, String note) {
    /** A resolution without a note. */
    public ResolvedLatency(LatencyModel model, OptionalInt kvBlocksFromCoefficients, ModelArchitecture architectureOrNull,
                           GpuSpec gpuOrNull) {
        this(model, kvBlocksFromCoefficients, architectureOrNull, gpuOrNull, "");
    }
}
