package io.servesim.fidelity;

import io.servesim.latency.BlackboxCoefficients;
import java.util.Locale;

/**
 * Blackbox coefficients in BLIS's trained-coefficient format (inference-sim/inference-sim
 * {@code defaults.yaml}, bundled as {@code blackbox_coefficients.yaml}): a {@code models:} list whose
 * entries give {@code id}, {@code GPU}, {@code tensor_parallelism}, {@code vllm_version},
 * {@code alpha_coeffs: [a0, a1, a2]}, {@code beta_coeffs: [b0, b1, b2]} (microseconds),
 * {@code total_kv_blocks} and {@code best_loss}. {@code servesim calibrate} writes one entry; it is
 * read back by {@link io.servesim.latency.CalibratedCoefficients} ({@code run} and {@code sweep} through
 * {@code deployment.coefficients: FILE}, {@code replay-real --coefficients}).
 */
public final class CoefficientsFile {

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
                %smodels:
                  - id: %s
                    GPU: %s
                    tensor_parallelism: %d
                    vllm_version: %s
                    alpha_coeffs: [%s, %s, %s]
                    beta_coeffs: [%s, %s, %s]
                    total_kv_blocks: %d
                    best_loss: %s
                """, run.directory(), fit.describe(), diff(fit.replay().report(), "TTFT"), diff(fit.replay().report(), "TPOT"),
                diff(fit.replay().report(), "E2E"), heldOut(fit),
                setup.modelId().toLowerCase(Locale.ROOT), setup.gpu().name(), run.settings().tensorParallel(),
                run.settings().vllmVersion(), c.a0(), c.a1(), c.a2(), c.b0(), c.b1(), c.b2(),
                setup.sim().engine().totalKvBlocks(), fit.rmsLogError());
    }

    /** The out-of-sample line, or nothing when the fit held no request out. */
    private static String heldOut(Calibrator.Fit fit) {
        ComparisonReport r = fit.heldOut();
        if (r == null) {
            return "";
        }
        return String.format(Locale.ROOT, "# Out of sample (the last %d requests, not fitted): TTFT mean %+.1f%%, TPOT mean %+.1f%%,"
                + " E2E mean %+.1f%%.%n", fit.replay().rows().size() - fit.fitted(), diff(r, "TTFT"), diff(r, "TPOT"), diff(r, "E2E"));
    }

    private static double diff(ComparisonReport report, String metric) {
        return report.line(metric, "mean").diffPercent();
    }
}
