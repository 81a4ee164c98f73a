package io.servesim.usercode;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The time budget of one user-code object's calls. The caller brackets every call with {@link #enter} and
 * {@link #exit}; the {@link Watchdog} thread samples the bracket count and, when one call has been in progress for
 * longer than the budget, marks the budget expired. The user code itself checks the mark at every loop iteration and
 * method entry ({@link #check}, inserted by {@link Instrumentation}), so a runaway call stops at its next iteration
 * with {@link CallBudgetExceeded}, which it cannot catch ({@link ReferenceCheck} refuses {@code catch} of
 * {@code Error} and {@code Throwable}); a call that overran inside a library method is caught at its {@link #exit}.
 *
 * <p>Results stay deterministic: a call within its budget is never touched, and one over it fails the run (how long
 * a call takes is the only thing read from the wall clock, by the watchdog alone). On the hot path a call costs two
 * ordered stores and the user code one read of a volatile flag per iteration.
 */
public final class CallBudget {
    private static final VarHandle CALLS;

    static {
        try {
            CALLS = MethodHandles.lookup().findVarHandle(CallBudget.class, "calls", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final long budgetNanos;
    private final String owner;
    /** Entries plus exits so far: odd while a call is in progress. Written by the calling thread only. */
    private long calls;
    private volatile boolean expired;
    /** The watchdog's last sample of {@link #calls} and when it first saw that value (its thread only). */
    private long sampledCalls = -1;
    private long sampledAtNanos;

    /**
     * A budget of {@code budgetNanos} per call, watched from now on.
     *
     * @param owner what the budget belongs to, for messages ({@code policies.routing: LeastQueue.java})
     */
    public CallBudget(long budgetNanos, String owner) {
        if (budgetNanos <= 0) {
            throw new IllegalArgumentException("a call budget must be > 0 ns, got " + budgetNanos);
        }
        this.budgetNanos = budgetNanos;
        this.owner = owner;
        Watchdog.watch(this);
    }

    /**
     * The budget the user code defined by {@code holder}'s loader runs under (the inserted checks read it once, when
     * their holder class initializes).
     */
    public static CallBudget of(Class<?> holder) {
        return ((RestrictedLoader) holder.getClassLoader()).budget();
    }

    /** A call into the user code begins. */
    public void enter() {
        CALLS.setRelease(this, calls + 1);
    }

    /** The call ended normally; throws {@link UserCodeException} if it ran over the budget. */
    public void exit(String call) {
        CALLS.setRelease(this, calls + 1);
        if (expired) {
            throw new UserCodeException(owner + ": " + call + " ran longer than its call budget of " + budgetText());
        }
    }

    /**
     * The call ended with {@code thrown}: the exception to fail the run with, naming the call, what it threw and the
     * line of {@code sourceFile} it was thrown from (or that it ran over the budget).
     */
    public UserCodeException failed(String call, Throwable thrown, String sourceFile) {
        CALLS.setRelease(this, calls + 1);
        String at = UserCodeException.lineIn(thrown, sourceFile);
        if (thrown instanceof CallBudgetExceeded) {
            return new UserCodeException(owner + ": " + call + " ran longer than its call budget of " + budgetText() + at);
        }
        String message = thrown.getMessage() == null ? "" : ": " + thrown.getMessage();
        return new UserCodeException(owner + ": " + call + " threw " + thrown.getClass().getSimpleName() + message + at,
                thrown);
    }

    /** Stops the user code's call if the budget expired; inserted at every loop iteration and method entry. */
    public void check() {
        if (expired) {
            throw new CallBudgetExceeded();
        }
    }

    /** The watchdog's sample at {@code nowNanos}: expires the budget when one call has lasted longer than it. */
    void sample(long nowNanos) {
        long c = (long) CALLS.getAcquire(this);
        if (c != sampledCalls) {
            sampledCalls = c;
            sampledAtNanos = nowNanos;
        } else if ((c & 1) == 1 && nowNanos - sampledAtNanos > budgetNanos) {
            expired = true;
        }
    }

    private String budgetText() {
        return budgetNanos % 1_000_000_000L == 0 ? budgetNanos / 1_000_000_000L + " s"
                : budgetNanos % 1_000_000L == 0 ? budgetNanos / 1_000_000L + " ms" : budgetNanos / 1_000L + " us";
    }
}
