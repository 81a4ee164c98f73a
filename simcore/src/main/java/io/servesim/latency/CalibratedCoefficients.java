package io.servesim.latency;

import com.fasterxml.jackson.databind.JsonNode;
import io.servesim.config.ConfigException;
import io.servesim.config.ReadFailure;
import io.servesim.config.StrictJson;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Blackbox coefficients from a file in the trained-coefficient format (inference-sim/inference-sim
 * {@code defaults.yaml}, as bundled in {@code blackbox_coefficients.yaml}) with exactly one
 * {@code models:} entry: what {@code servesim calibrate} writes, and what {@code run} / {@code sweep}
 * ({@code deployment.coefficients: FILE}) and {@code replay-real --coefficients} read. The entry's
 * {@code total_kv_blocks}, when given, is the KV capacity of the run the coefficients were fitted
 * on (vLLM's {@code num_gpu_blocks}).
 *
 * The entry's {@code id} and {@code GPU} say which model and GPU the run was on: coefficients and capacity are
 * that pair's, and {@link #mismatch} says so when they are used for another.
 *
 * @param coefficients  alpha / beta coefficients (us)
 * @param totalKvBlocks KV blocks of the fitted run; 0 when the file gives none
 * @param file          where they were read
 * @param fittedModel   the model id the run served ({@code id}), or null when the file gives none
 * @param fittedGpu     the GPU the run was on ({@code GPU}), or null when the file gives none
 */
public record CalibratedCoefficients(BlackboxCoefficients coefficients, int totalKvBlocks, Path file, String fittedModel,
                                     String fittedGpu) {
    /** Coefficients whose file does not say what they were fitted on. */
    public CalibratedCoefficients(BlackboxCoefficients coefficients, int totalKvBlocks, Path file) {
        this(coefficients, totalKvBlocks, file, null, null);
    }

    /** What they were fitted on ({@code meta-llama/llama-3.1-8b on RTXPRO6000}), or null when the file does not say. */
    public String fittedOn() {
        if (fittedModel == null && fittedGpu == null) {
            return null;
        }
        return (fittedModel == null ? "an unnamed model" : fittedModel) + " on " + (fittedGpu == null ? "an unnamed GPU" : fittedGpu);
    }

    /**
     * Why these coefficients do not describe {@code model} on {@code gpu} (canonical names; either null: not
     * compared), naming both pairs, or null when they do (or the file does not say what they were fitted on).
     * {@code kvCapacityUsed}: the file's {@code total_kv_blocks} sizes the KV cache too (a run, not a replay).
     */
    public String mismatch(String model, GpuSpec gpu, GpuCatalog gpus, boolean kvCapacityUsed) {
        // a base model and its instruct model share an architecture (one catalog entry, the other an alias)
        boolean otherModel = model != null && fittedModel != null && !canonical(fittedModel).equals(canonical(model));
        String fittedGpuName = fittedGpu == null ? null : gpus.find(fittedGpu).map(GpuSpec::name).orElse(fittedGpu);
        boolean otherGpu = gpu != null && fittedGpuName != null && !fittedGpuName.equalsIgnoreCase(gpu.name());
        if (!otherModel && !otherGpu) {
            return null;
        }
        return "the calibrated coefficients of " + file + " were fitted on " + fittedOn() + " and are used here for "
                + (model == null ? "the deployment's model" : model) + " on " + (gpu == null ? "the deployment's GPU" : gpu.name())
                + ": its step times" + (kvCapacityUsed && totalKvBlocks > 0 ? " and KV capacity (total_kv_blocks " + totalKvBlocks + ")" : "")
                + " are those of " + fittedOn() + "; calibrate on a run of this model and GPU";
    }

    /** Reads {@code file}; problems name {@code configPath} (the key or flag that named it) and the file. */
    public static CalibratedCoefficients read(Path file, String configPath) {
        JsonNode root;
        try {
            root = StrictJson.yaml().readTree(Files.readAllBytes(file));
        } catch (IOException e) {
            throw new ConfigException(List.of(ReadFailure.problem(e, file)));
        }
        JsonNode models = root == null ? null : root.get("models");
        if (models == null || !models.isArray() || models.size() != 1) {
            throw new ConfigException(configPath, file + ": models: expected a list with exactly one entry (the format"
                    + " servesim calibrate writes)");
        }
        JsonNode entry = models.get(0);
        double[] alpha = triple(entry, "alpha_coeffs", file);
        double[] beta = triple(entry, "beta_coeffs", file);
        JsonNode blocks = entry.get("total_kv_blocks");
        if (blocks != null && !(blocks.canConvertToInt() && blocks.isIntegralNumber() && blocks.asInt() >= 1)) {
            throw new ConfigException(file + " models[0].total_kv_blocks", "must be an integer >= 1, got " + blocks);
        }
        return new CalibratedCoefficients(new BlackboxCoefficients(alpha[0], alpha[1], alpha[2], beta[0], beta[1], beta[2]),
                blocks == null ? 0 : blocks.asInt(), file, text(entry, "id"), text(entry, "GPU"));
    }

    private static String canonical(String modelId) {
        return ModelCatalog.builtIn().find(modelId).map(ModelCatalog.Entry::id).orElse(modelId.trim().toLowerCase(java.util.Locale.ROOT));
    }

    private static String text(JsonNode entry, String field) {
        JsonNode v = entry.get(field);
        return v != null && v.isValueNode() && !v.isNull() && !v.asText().isBlank() ? v.asText().trim() : null;
    }

    private static double[] triple(JsonNode entry, String field, Path file) {
        JsonNode v = entry.get(field);
        if (v == null || !v.isArray() || v.size() != 3) {
            throw new ConfigException(file + " models[0]." + field, "required: a list of 3 numbers (microseconds)");
        }
        double[] out = new double[3];
        for (int i = 0; i < 3; i++) {
            if (!v.get(i).isNumber() || !(v.get(i).asDouble() >= 0) || Double.isInfinite(v.get(i).asDouble())) {
                throw new ConfigException(file + " models[0]." + field + "[" + i + "]", "must be a finite number >= 0, got " + v.get(i));
            }
            out[i] = v.get(i).asDouble();
        }
        return out;
    }
}
