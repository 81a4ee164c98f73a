package io.servesim.run;

import io.servesim.kernel.EventKind;

/** The handlers of the event kinds features own ({@link RunFeature#register}), one per kind. */
final class EventHandlers {
    /** Handles one popped event: its target (an instance id, a version, or -1), its reference and the clock. */
    @FunctionalInterface
    interface Handler {
        void handle(int target, Object ref, long nowUs);
    }

    private final Handler[] byKind = new Handler[EventKind.values().length];

    /** Makes {@code handler} the one for {@code kind}; a kind has one handler. */
    void on(EventKind kind, Handler handler) {
        if (byKind[kind.ordinal()] != null) {
            throw new IllegalStateException("two handlers for " + kind);
        }
        byKind[kind.ordinal()] = handler;
    }

    /** Runs the handler of {@code kind}; an event no feature registered for is a bug. */
    void dispatch(EventKind kind, int target, Object ref, long nowUs) {
        Handler h = byKind[kind.ordinal()];
        if (h == null) {
            throw new IllegalStateException("no handler for event " + kind);
        }
        h.handle(target, ref, nowUs);
    }
}
