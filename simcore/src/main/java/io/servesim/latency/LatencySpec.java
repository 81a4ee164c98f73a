package io.servesim.latency;

/**
 * Which latency model to build, as bound from config ({@code deployment:} section) and CLI flags.
 *
 * @param kind        a {@link LatencyKind} name, case-insensitive; null is {@code auto}
 * @param modelId     Hugging Face model id, case-insensitive (e.g. {@code meta-llama/llama-3.1-8b-instruct}); may be
 *                    null only for blackbox with explicit coefficients
 * @param hardware    GPU short name or alias (e.g. {@code H100}); may be null only for blackbox with explicit coefficients
 * @param tp          tensor-parallel degree (>= 1)
 * @param coefficients explicit blackbox coefficients, or null to look them up
 */
public record LatencySpec(String kind, String modelId, String hardware, int tp,
                          BlackboxCoefficients coefficients) {
}
