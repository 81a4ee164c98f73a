package io.servesim.workload.dist;

/**
 * The few special functions the samplers need: ln Gamma (Lanczos approximation with g = 7, n = 9,
 * the coefficients P. Godfrey published and the Wikipedia article "Lanczos approximation" lists;
 * relative error about 1e-15) and the shape of a Weibull distribution from its coefficient of
 * variation (as BLIS {@code sim/workload/arrival.go} {@code weibullShapeFromCV}, but solved to
 * machine precision).
 */
public final class SpecialFunctions {
    private static final double[] LANCZOS = {
        0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313,
        -176.61502916214059, 12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6,
        1.5056327351493116e-7};
    private static final double HALF_LN_TWO_PI = 0.5 * Math.log(2 * Math.PI);

    private SpecialFunctions() {
    }

    /** ln Gamma(x) for x > 0. */
    public static double lnGamma(double x) {
        if (!(x > 0)) {
            throw new IllegalArgumentException("lnGamma needs x > 0, got " + x);
        }
        if (x < 0.5) {
            // Reflection: Gamma(x) Gamma(1 - x) = pi / sin(pi x).
            return Math.log(Math.PI / Math.sin(Math.PI * x)) - lnGamma(1 - x);
        }
        double z = x - 1;
        double sum = LANCZOS[0];
        for (int i = 1; i < LANCZOS.length; i++) {
            sum += LANCZOS[i] / (z + i);
        }
        double t = z + 7.5;
        return HALF_LN_TWO_PI + (z + 0.5) * Math.log(t) - t + Math.log(sum);
    }

    /** Gamma(x) for x > 0 (overflows to infinity above x ~ 171). */
    public static double gamma(double x) {
        return Math.exp(lnGamma(x));
    }

    /**
     * Coefficient of variation of a Weibull distribution of shape {@code k}:
     * sqrt(Gamma(1 + 2/k) / Gamma(1 + 1/k)^2 - 1), computed in log space so small shapes do not overflow.
     */
    public static double weibullCv(double k) {
        double ratio = Math.exp(lnGamma(1 + 2 / k) - 2 * lnGamma(1 + 1 / k));
        return Math.sqrt(Math.max(0, ratio - 1));
    }

    /**
     * The Weibull shape whose coefficient of variation is {@code cv}, by bisection on ln k over
     * [ln 0.02, ln 1000] (the CV decreases monotonically in k; this covers CV in about [0.0013, 3e7]).
     * Converges to machine precision in 200 halvings.
     */
    public static double weibullShapeForCv(double cv) {
        double lo = Math.log(0.02);
        double hi = Math.log(1000);
        for (int i = 0; i < 200; i++) {
            double mid = 0.5 * (lo + hi);
            if (weibullCv(Math.exp(mid)) > cv) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        return Math.exp(0.5 * (lo + hi));
    }
}
