package io.servesim.fidelity;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.servesim.config.ConfigException;
import io.servesim.config.ReadFailure;
import io.servesim.config.StrictJson;
import io.servesim.latency.BlackboxCoefficients;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * Blackbox coefficients in BLIS's trained-coefficient format (inference-sim/inference-sim
 * {@code defaults.yaml}, bundled as {@code blackbox_coefficients.yaml}): a {@code models:} list whose
 * entries give {@code id}, {@code GPU}, {@code tensor_parallelism}, {@code vllm_version},
 * {@code alpha_coeffs: [a0, a1, a2]}, {@code beta_coeffs: [b0, b1, b2]} (microseconds),
 * {@code total_kv_blocks} and {@code best_loss}. {@code servesim calibrate} writes one entry;
 * {@code servesim replay-real --coefficients} reads the file's only entry.
 */
public final class CoefficientsFile {
    private static final ObjectMapper YAML = StrictJson.yaml();

    private CoefficientsFile() {
    }

    /** The file for a fit of {@code run}, with a header saying how it was obtained. */
    public static String render(RealRun run, Calibrator.Fit fit) {
        BlackboxCoefficients c = fit.coefficients();
        ReplaySetup setup = fit.replay().setup();
        return String.format(Locale.ROOT, """
                # Blackbox latency coefficients (microseconds) fitted by `servesim calibrate` to the real run in
                #   %s
                # Method: Nelder-Mead over ln(b0, b1, b2), minimising the mean squared log-ratio sim/real of every
                # request's TTFT, E2E and TPOT replayed through the simulator (io.servesim.fidelity.Calibrator).
                # alpha = 0: the run's latencies start at vLLM's queued_ts and end at engine-core timestamps.
                # Fit: %s
                # Replay with these coefficients: TTFT mean %+.1f%%, TPOT mean %+.1f%%, E2E mean %+.1f%%.
                models:
                  - id: %s
                    GPU: %s
                    tensor_parallelism: %d
                    vllm_version: %s
                    alpha_coeffs: [%s, %s, %s]
                    beta_coeffs: [%s, %s, %s]
                    total_kv_blocks: %d
                    best_loss: %s
                """, run.directory(), fit.describe(), diff(fit, "TTFT"), diff(fit, "TPOT"), diff(fit, "E2E"),
                setup.modelId().toLowerCase(Locale.ROOT), setup.gpu().name(), run.settings().tensorParallel(),
                run.settings().vllmVersion(), c.a0(), c.a1(), c.a2(), c.b0(), c.b1(), c.b2(),
                setup.sim().engine().totalKvBlocks(), fit.rmsLogError());
    }

    /** Reads the coefficients of the file's only {@code models:} entry. */
    public static BlackboxCoefficients read(Path file) {
        JsonNode root;
        try {
            root = YAML.readTree(Files.readAllBytes(file));
        } catch (IOException e) {
            throw new ConfigException(List.of(ReadFailure.problem(e, file)));
        }
        JsonNode models = root == null ? null : root.get("models");
        if (models == null || !models.isArray() || models.size() != 1) {
            throw new ConfigException(file + " models", "expected a list with exactly one entry (the format servesim calibrate "
                    + "writes)");
        }
        double[] alpha = triple(models.get(0), "alpha_coeffs", file);
        double[] beta = triple(models.get(0), "beta_coeffs", file);
        return new BlackboxCoefficients(alpha[0], alpha[1], alpha[2], beta[0], beta[1], beta[2]);
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

    private static double diff(Calibrator.Fit fit, String metric) {
        return fit.replay().report().line(metric, "mean").diffPercent();
    }
}
