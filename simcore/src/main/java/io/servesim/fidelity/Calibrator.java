package io.servesim.fidelity;

import io.servesim.config.ConfigException;
import io.servesim.latency.BlackboxCoefficients;
import io.servesim.latency.BlackboxModel;
import io.servesim.latency.GpuCatalog;
import io.servesim.latency.LatencyKind;
import java.util.List;
import java.util.Locale;

/**
 * Fits blackbox step-time coefficients (b0, b1, b2; BLIS's {@code beta_coeffs}) to a real run by
 * searching for the ones whose replay through the simulator best reproduces every request's measured
 * latencies: the simulator supplies what the timestamps alone cannot (which requests shared each
 * step, and the queueing that follows from the step times).
 *
 * <p>Method. The objective is the mean of squared log-ratios sim/real over every completed request's
 * TTFT, E2E and (for outputs of two or more tokens) TPOT; a request the simulator does not complete
 * costs {@code ln(10)^2} per metric. It is minimised over {@code ln b0, ln b1, ln b2} (which keeps the
 * coefficients positive) by {@link NelderMead} from a start derived from the run: with {@code T} the
 * measured mean TPOT, b0 = T/2 and b2 = T/(2 x max_num_seqs) (a full decode batch then costs T), and
 * b1 = T / max_num_batched_tokens. The reported fit error is the root of the objective, the RMS
 * log-ratio (about the RMS relative error per request and metric).
 *
 * <p>The alpha coefficients are 0: the run's latencies are measured from vLLM's {@code queued_ts} to
 * engine-core output timestamps, so they contain neither the API server's queueing/tokenisation
 * delay (a0, a1) nor detokenisation (a2).
 */
public final class Calibrator {
    /** Objective evaluations (replays) allowed. */
    public static final int MAX_EVALUATIONS = 200;
    /** Stop when the simplex's objective values differ by less than this. */
    public static final double TOLERANCE = 1e-6;
    /** Edge of the start simplex in log space (a factor of e^0.5 = 1.65 per coefficient). */
    public static final double START_STEP = 0.5;
    private static final double MISSING_PENALTY = Math.log(10) * Math.log(10);

    /**
     * The outcome.
     *
     * @param coefficients  fitted coefficients (us)
     * @param rmsLogError   root of the objective at the fit (over the fitted requests)
     * @param evaluations   replays run
     * @param replay        the replay of the whole run with the fitted coefficients
     * @param fitted        requests the objective covered: the first ones by arrival
     * @param heldOut       the report over the requests after them, which the fit never saw (null
     *                      when nothing was held out)
     */
    public record Fit(BlackboxCoefficients coefficients, double rmsLogError, int evaluations, Replay replay, int fitted,
                      ComparisonReport heldOut) {
        /** One line describing the method and the result. */
        public String describe() {
            return String.format(Locale.ROOT, "b0 %.1f us, b1 %.4f us/prefill token, b2 %.4f us/decode token; RMS log error "
                    + "%.4f over the first %d of %d requests after %d replays", coefficients.b0(), coefficients.b1(),
                    coefficients.b2(), rmsLogError, fitted, replay.rows().size(), evaluations);
        }
    }

    private Calibrator() {
    }

    /**
     * Fits {@code run}, holding out the last {@code holdout} share of its requests (by arrival): every
     * replay simulates the whole run, so the held-out requests see the same queues as in reality, but
     * the objective counts only the first {@code 1 - holdout}; the report over the rest is the fit's
     * out-of-sample error. {@code holdout} 0 fits on every request.
     *
     * @param hardwareOrNull GPU when the run does not record it (as for {@link ReplaySetup})
     * @param modelOrNull    model override (as for {@link ReplaySetup})
     * @param holdout        share of requests held out, in [0, 1)
     */
    public static Fit fit(RealRun run, String hardwareOrNull, String modelOrNull, double holdout) {
        return fit(run, hardwareOrNull, modelOrNull, holdout, GpuCatalog.builtIn());
    }

    /** As {@link #fit(RealRun, String, String, double)}, with the run's GPU looked up in {@code gpus}. */
    public static Fit fit(RealRun run, String hardwareOrNull, String modelOrNull, double holdout, GpuCatalog gpus) {
        if (!(holdout >= 0 && holdout < 1)) {
            throw new ConfigException("--holdout", "must be in [0, 1), got " + holdout);
        }
        int fitted = Math.max(1, (int) Math.round(run.measured().size() * (1 - holdout)));
        EngineSettings s = run.settings();
        if (s.expertParallel() && s.dataParallel() > 1) {
            throw new ConfigException(run.directory().resolve("meta.json") + " engine_kwargs.enable_expert_parallel",
                    "an expert-parallel run ("
                    + s.dataParallel() + " data-parallel ranks stepping in lockstep) cannot be calibrated: blackbox"
                    + " coefficients price one engine's step, and a lockstep step is the slowest rank's plus the experts'"
                    + " all-to-all; replay it with `servesim replay-real --latency-model roofline` or `profiled`");
        }
        double tpotUs = run.measured().stream().mapToDouble(MeasuredRequest::tpotMs).filter(Double::isFinite)
                .average().orElse(10) * 1e3;
        BlackboxCoefficients start = beta(tpotUs / 2, tpotUs / s.maxNumBatchedTokens(), tpotUs / (2.0 * s.maxNumSeqs()));
        ReplaySetup setup = ReplaySetup.resolve(run, new ReplayOptions(LatencyKind.BLACKBOX.configName(), hardwareOrNull,
                modelOrNull, start, null), gpus);
        double[] logStart = {Math.log(start.b0()), Math.log(start.b1()), Math.log(start.b2())};
        NelderMead.Result best = NelderMead.minimize(x -> objective(replay(run, setup, x).rows().subList(0, fitted)), logStart,
                START_STEP, MAX_EVALUATIONS, TOLERANCE);
        Replay replay = replay(run, setup, best.point());
        List<ReplayRow> rest = replay.rows().subList(fitted, replay.rows().size());
        return new Fit(coefficients(best.point()), Math.sqrt(best.value()), best.evaluations(), replay, fitted,
                rest.isEmpty() ? null : ComparisonReport.of(rest));
    }

    /** Mean squared log-ratio sim/real over the requests' TTFT, E2E and TPOT (see the class comment). */
    static double objective(List<ReplayRow> rows) {
        double sum = 0;
        int terms = 0;
        for (ReplayRow r : rows) {
            if (Double.isNaN(r.simE2eMs())) {
                sum += 3 * MISSING_PENALTY;
                terms += 3;
                continue;
            }
            sum += square(Math.log(r.simTtftMs() / r.realTtftMs())) + square(Math.log(r.simE2eMs() / r.realE2eMs()));
            terms += 2;
            if (Double.isFinite(r.realTpotMs()) && Double.isFinite(r.simTpotMs())) {
                sum += square(Math.log(r.simTpotMs() / r.realTpotMs()));
                terms++;
            }
        }
        return sum / terms;
    }

    private static Replay replay(RealRun run, ReplaySetup setup, double[] logBeta) {
        return Replay.run(run, setup.withLatency(new BlackboxModel(coefficients(logBeta), "calibrated")));
    }

    private static BlackboxCoefficients coefficients(double[] logBeta) {
        return beta(Math.exp(logBeta[0]), Math.exp(logBeta[1]), Math.exp(logBeta[2]));
    }

    private static BlackboxCoefficients beta(double b0, double b1, double b2) {
        return new BlackboxCoefficients(0, 0, 0, b0, b1, b2);
    }

    private static double square(double x) {
        return x * x;
    }
}
