package io.servesim.latency;

/**
 * Trained blackbox coefficients in microseconds, in the BLIS {@code defaults.yaml} format
 * ({@code alpha_coeffs: [a0, a1, a2]}, {@code beta_coeffs: [b0, b1, b2]}).
 *
 * @param a0 queueing delay intercept (us)
 * @param a1 queueing delay per input token (us/token)
 * @param a2 per-output-token processing time (us/token)
 * @param b0 step time intercept (us)
 * @param b1 step time per new prefill token (us/token)
 * @param b2 step time per decode token (us/token)
 */
public record BlackboxCoefficients(double a0, double a1, double a2, double b0, double b1, double b2) {
}
