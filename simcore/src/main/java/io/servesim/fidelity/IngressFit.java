package io.servesim.fidelity;

import io.servesim.engine.FrontEndSettings;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Fits the serving front end's one fitted constant, the ingress per prompt token
 * ({@link FrontEndSettings#TOKENIZE}, {@code frontend.tokenize_us_per_token}), to the real TTFT means of the
 * sim-to-real study's trainval set ({@link Sim2RealStudy}: the shipped configs and workloads, simulated by the roofline
 * as {@code servesim run} would). Each experiment is simulated with no ingress and with {@link #PROBE_US_PER_TOKEN}; its
 * TTFT mean is linear in the constant between the two (the ingress delays each request's arrival at the engine core by
 * the same cost per prompt token, and on these lightly loaded runs that shifts TTFT without reshaping the batches:
 * simulated at 0, 11.15, 12.66, 25 and 50 us, every experiment's TTFT mean lies within 0.001 ms of the line, whose
 * slope is its mean prompt length), so with a_i the TTFT without ingress, b_i its growth per us per
 * token and R_i the real mean, the least squares of the relative error
 * <pre>
 * minimise sum_i ((a_i + b_i x) / R_i - 1)^2   =>   x = sum_i (b_i / R_i)(1 - a_i / R_i) / sum_i (b_i / R_i)^2
 * </pre>
 * and the same leaving each experiment out, which predicts that experiment's TTFT out of sample.
 *
 * @param usPerToken     the fit on every experiment, us per prompt token
 * @param leaveOneOut    the fit without each experiment, in the study's order
 * @param heldOutErrors  each experiment's |relative TTFT-mean error| under the fit without it
 * @param experiments    the experiments, in the study's order
 */
public record IngressFit(double usPerToken, double[] leaveOneOut, double[] heldOutErrors, List<String> experiments) {
    /** The second ingress each experiment is simulated at, us per prompt token. */
    static final double PROBE_US_PER_TOKEN = 25.0;

    /** Simulates the study under {@code dir} (as {@link Sim2RealStudy#run}) twice and fits the ingress. */
    public static IngressFit fit(Path dir) {
        Sim2RealStudy none = Sim2RealStudy.run(dir, List.of(), List.of(override(0)));
        Sim2RealStudy probe = Sim2RealStudy.run(dir, List.of(), List.of(override(PROBE_US_PER_TOKEN)));
        int n = none.rows().size();
        double[] a = new double[n];
        double[] b = new double[n];
        double[] real = new double[n];
        List<String> names = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Sim2RealStudy.Row row = none.rows().get(i);
            names.add(row.experiment());
            a[i] = row.ttftMs();
            b[i] = (probe.rows().get(i).ttftMs() - row.ttftMs()) / PROBE_US_PER_TOKEN;
            real[i] = none.means().actual().get(row.experiment()).get("ttft_mean");
        }
        double[] loo = new double[n];
        double[] errors = new double[n];
        for (int i = 0; i < n; i++) {
            loo[i] = leastSquares(a, b, real, i);
            errors[i] = Math.abs((a[i] + b[i] * loo[i]) / real[i] - 1);
        }
        return new IngressFit(leastSquares(a, b, real, -1), loo, errors, List.copyOf(names));
    }

    private static String override(double usPerToken) {
        return FrontEndSettings.TOKENIZE.path() + "=" + usPerToken;
    }

    /** The least-squares x over every experiment but {@code skip} (-1: none). */
    static double leastSquares(double[] a, double[] b, double[] real, int skip) {
        double num = 0;
        double den = 0;
        for (int i = 0; i < a.length; i++) {
            if (i != skip) {
                double slope = b[i] / real[i];
                num += slope * (1 - a[i] / real[i]);
                den += slope * slope;
            }
        }
        return num / den;
    }

    /** The smallest of the leave-one-out fits. */
    public double leaveOneOutMin() {
        return Arrays.stream(leaveOneOut).min().orElse(Double.NaN);
    }

    /** The largest of the leave-one-out fits. */
    public double leaveOneOutMax() {
        return Arrays.stream(leaveOneOut).max().orElse(Double.NaN);
    }

    /** The median |relative TTFT-mean error| of the experiments, each predicted by the fit without it. */
    public double heldOutMedianError() {
        return LatencyValidation.quantile(Arrays.stream(heldOutErrors).boxed().toList(), 0.5);
    }
}
