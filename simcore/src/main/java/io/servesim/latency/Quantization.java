package io.servesim.latency;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * How the weights are stored, as vLLM's {@code --quantization} chooses (ModelConfig {@code quantization},
 * {@code vllm/model_executor/layers/quantization/fp8.py}): {@code auto} as the checkpoint's {@code config.json} says
 * (its {@code quantization_config}, or the model's dtype without one); {@code fp8}, vLLM's online dynamic FP8: a 16-bit
 * checkpoint's linear layers quantized to one byte per weight at load, run as W8A8 on GPUs with FP8 tensor cores and
 * as weight-only W8A16 through the FP8 Marlin kernel on those without (Ampere: {@code Fp8LinearMethod} falls back to
 * {@code apply_fp8_marlin_linear} below compute capability 8.9), so the weights are read at one byte either way while
 * the math runs at the FP8 or the 16-bit peak ({@link GpuSpec#peakFlopsPerSecond}).
 */
public enum Quantization {
    AUTO("auto"), FP8("fp8");

    private final String configName;

    Quantization(String configName) {
        this.configName = configName;
    }

    public String configName() {
        return configName;
    }

    public static List<String> names() {
        return Arrays.stream(values()).map(Quantization::configName).toList();
    }

    public static Optional<Quantization> find(String name) {
        return Arrays.stream(values()).filter(q -> q.configName.equals(name)).findFirst();
    }
}
