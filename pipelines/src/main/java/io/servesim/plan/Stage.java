package io.servesim.plan;

import java.util.Locale;

/** Why a round runs a probe; the {@code stage} column of a round's rows. */
public enum Stage {
    /** On a short trace at the target rate: the family bisection and the rungs of successive halving below the last. */
    SCREEN,
    /** On the full trace at the target rate: the last rung of successive halving (the finalists). */
    CONFIRM,
    /** On the full trace at the target rate: checking that no cheaper candidate meets every SLO. */
    VERIFY,
    /** On the full trace at another rate: bisecting the sustainable rate. */
    CAPACITY;

    /** The column's value: {@code screen}, {@code confirm}, ... */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
