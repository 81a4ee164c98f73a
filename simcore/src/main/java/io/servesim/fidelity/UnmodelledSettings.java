package io.servesim.fidelity;

import com.fasterxml.jackson.databind.JsonNode;
import io.servesim.config.ConfigException;
import java.util.Set;

/**
 * The engine arguments of a real run ({@code meta.json}'s {@code engine_kwargs}, vLLM's {@code EngineArgs} names) that
 * change what the hardware does and that a replay does not model yet: a run using one is refused with the argument
 * named, never replayed as if it were absent (a data-parallel run of two ranks replayed as one rank on half the
 * hardware came out at +2,217% TTFT; data and expert parallelism are modelled now, {@link ReplaySetup}). Each argument's vLLM meaning (vLLM 0.19 {@code vllm/engine/arg_utils.py}):
 * <ul>
 *   <li>{@code pipeline_parallel_size}: the layers split into stages, each on its own GPUs;</li>
 *   <li>{@code dtype}: activations and weights in float32 ({@code auto}, {@code bfloat16}, {@code float16} and
 *       {@code half} are the 16-bit widths every latency model assumes).</li>
 * </ul>
 */
final class UnmodelledSettings {
    private static final Set<String> SIXTEEN_BIT = Set.of("auto", "bfloat16", "float16", "half");

    private UnmodelledSettings() {
    }

    /** Throws naming the first argument of {@code kw} (in {@code where}) set to what a replay cannot model. */
    static void refuse(JsonNode kw, String where) {
        atMostOne(kw, "pipeline_parallel_size", where, "pipeline parallelism is not modelled by replay-real");
        JsonNode dtype = kw.get("dtype");
        if (dtype != null && !dtype.isNull() && !SIXTEEN_BIT.contains(dtype.asText())) {
            throw new ConfigException(where + " engine_kwargs.dtype", dtype + ": the latency models assume 16-bit"
                    + " weights and activations; valid: " + String.join(", ", SIXTEEN_BIT.stream().sorted().toList()));
        }
    }

    private static void atMostOne(JsonNode kw, String field, String where, String why) {
        JsonNode v = kw.get(field);
        if (v == null || v.isNull()) {
            return;
        }
        if (!v.isIntegralNumber() || !v.canConvertToInt() || v.asInt() < 1) {
            throw new ConfigException(where + " engine_kwargs." + field, "must be a positive integer, got " + v);
        }
        if (v.asInt() > 1) {
            throw new ConfigException(where + " engine_kwargs." + field, v.asInt() + ": " + why);
        }
    }
}
