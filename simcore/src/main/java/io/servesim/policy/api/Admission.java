package io.servesim.policy.api;

/**
 * An admission decision: admit now, reject (the reason ends up in the request's record and the decision trace), or
 * ask again after a delay (pacing).
 *
 * @param kind    what to do
 * @param delayUs for {@link Kind#DELAY}, microseconds until the policy is asked again (&gt; 0); 0 otherwise
 * @param reason  why, for a rejection or a delay; null for an admission
 */
public record Admission(Kind kind, long delayUs, String reason) {
    /** What an admission decision does. */
    public enum Kind { ADMIT, REJECT, DELAY }

    private static final Admission ADMIT = new Admission(Kind.ADMIT, 0, null);

    public Admission {
        if (kind == null) {
            throw new IllegalArgumentException("an admission decision needs a kind");
        }
        if ((kind == Kind.DELAY) != (delayUs > 0)) {
            throw new IllegalArgumentException(kind == Kind.DELAY ? "a delay must be > 0 us, got " + delayUs
                    : "only a delay has a delay, got " + delayUs + " us with " + kind);
        }
        if (kind != Kind.ADMIT && (reason == null || reason.isBlank())) {
            throw new IllegalArgumentException("a " + kind.name().toLowerCase(java.util.Locale.ROOT) + " needs a reason");
        }
    }

    /** Admit the request now. */
    public static Admission admit() {
        return ADMIT;
    }

    /** Reject it, saying why. */
    public static Admission reject(String reason) {
        return new Admission(Kind.REJECT, 0, reason);
    }

    /** Ask again after {@code delayUs} microseconds (&gt; 0), saying why. */
    public static Admission delay(long delayUs, String reason) {
        return new Admission(Kind.DELAY, delayUs, reason);
    }
}
