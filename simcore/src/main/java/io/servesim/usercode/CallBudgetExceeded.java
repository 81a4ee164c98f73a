package io.servesim.usercode;

/**
 * Thrown into user code whose call ran over its {@link CallBudget}: an {@code Error}, so the code cannot catch it
 * ({@link ReferenceCheck} refuses {@code catch} of {@code Error} and {@code Throwable}); the caller turns it into a
 * {@link UserCodeException}.
 */
final class CallBudgetExceeded extends Error {
    private static final long serialVersionUID = 1L;

    CallBudgetExceeded() {
        super("call budget exceeded"); // with its stack trace: the user's line it stopped at
    }
}
