package io.servesim.latency;

import java.nio.file.Path;

/**
 * Which latency model to build, as bound from config ({@code deployment:} section) and CLI flags.
 *
 * @param kind         a {@link LatencyKind} name, case-insensitive; null is {@code auto}
 * @param modelId      Hugging Face model id, case-insensitive (e.g. {@code meta-llama/llama-3.1-8b-instruct}); may be
 *                     null only for blackbox with explicit coefficients
 * @param hardware     GPU short name or alias (e.g. {@code H100}); may be null only for blackbox with explicit coefficients
 * @param tp           tensor-parallel degree (>= 1)
 * @param coefficients explicit blackbox coefficients (inline, or from a calibrated file), or null to look them up
 * @param calibrated   the file the coefficients came from ({@code deployment.coefficients: FILE}), or null; its
 *                     KV capacity, when it gives one, is the run's unless {@code engine.total_kv_blocks} is set
 * @param profileDir   a measured-profile directory for the profiled model ({@code deployment.profile}), or null for
 *                     the bundled profiles
 * @param gpus         the GPUs {@code hardware} may name: the bundled table, plus a user's rows
 *                     ({@code deployment.gpus: FILE}, {@link GpuCatalog#withFile})
 * @param kvCache      how the KV cache stores its elements ({@code deployment.kv_cache_dtype})
 * @param quantization how the weights are stored ({@code deployment.quantization})
 * @param encoderUsPerToken the multimodal encoder's cost per encoder token ({@code deployment.encoder_us_per_token}), or
 *                     {@link #ENCODER_FROM_MODEL} to derive it from the model's vision config
 * @param epBalancedness an expert-parallel deployment's expert load balance ({@code deployment.ep_balancedness}, in
 *                     (0, 1]; 1: balanced)
 */
public record LatencySpec(String kind, String modelId, String hardware, int tp, BlackboxCoefficients coefficients,
                          CalibratedCoefficients calibrated, Path profileDir, GpuCatalog gpus, KvCacheDtype kvCache,
                          Quantization quantization, double encoderUsPerToken, double epBalancedness) {
    /** {@code encoder_us_per_token} not given: the encoder is priced from the model's vision config. */
    public static final double ENCODER_FROM_MODEL = -1;

    /** A spec whose encoder, if any, is priced from the model's vision config. */
    public LatencySpec(String kind, String modelId, String hardware, int tp, BlackboxCoefficients coefficients,
                       CalibratedCoefficients calibrated, Path profileDir, GpuCatalog gpus, KvCacheDtype kvCache,
                       Quantization quantization) {
        this(kind, modelId, hardware, tp, coefficients, calibrated, profileDir, gpus, kvCache, quantization,
                ENCODER_FROM_MODEL, 1.0);
    }

    /** A spec with the checkpoint's weights and the KV cache in the model's dtype. */
    public LatencySpec(String kind, String modelId, String hardware, int tp, BlackboxCoefficients coefficients,
                       CalibratedCoefficients calibrated, Path profileDir, GpuCatalog gpus) {
        this(kind, modelId, hardware, tp, coefficients, calibrated, profileDir, gpus, KvCacheDtype.AUTO, Quantization.AUTO);
    }

    /** Whether the weights or the KV cache differ from what trained coefficients and profiles were measured with. */
    public boolean changesPrecision() {
        return kvCache.bytes() > 0 || quantization != Quantization.AUTO;
    }

    /** A spec over the bundled GPUs, without a calibrated file or profile directory. */
    public LatencySpec(String kind, String modelId, String hardware, int tp, BlackboxCoefficients coefficients) {
        this(kind, modelId, hardware, tp, coefficients, null, null, GpuCatalog.builtIn());
    }
}
