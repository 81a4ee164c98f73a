package io.servesim.cluster;

/**
 * Outcome of an admission check: admit now, reject (with a reason that ends up in the record),
 * or ask again after {@code delayUs}.
 */
public record AdmissionDecision(Kind kind, long delayUs, String reason) {
    /** Decision kinds. */
    public enum Kind { ADMIT, REJECT, DELAY }

    public static final AdmissionDecision ADMIT = new AdmissionDecision(Kind.ADMIT, 0, null);

    public static AdmissionDecision reject(String reason) {
        return new AdmissionDecision(Kind.REJECT, 0, reason);
    }

    public static AdmissionDecision delay(long delayUs, String reason) {
        if (delayUs <= 0) {
            throw new IllegalArgumentException("delay must be > 0");
        }
        return new AdmissionDecision(Kind.DELAY, delayUs, reason);
    }
}
