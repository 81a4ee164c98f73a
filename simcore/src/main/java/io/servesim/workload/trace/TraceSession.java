package io.servesim.workload.trace;

import java.util.ArrayDeque;

/** Replay state of one trace session: whether a turn is out, when the last one completed, and the turns waiting for it. */
final class TraceSession {
    final long sessionId;
    /** A turn of this session is in flight (or released and about to arrive). */
    boolean busy;
    /** A turn was dropped or rejected: the session's remaining rows are not replayed. */
    boolean ended;
    long lastCompletionUs = -1;
    /** Follow-up turns read from the file while an earlier turn was out, in file order. */
    final ArrayDeque<TraceRow> waiting = new ArrayDeque<>(2);

    TraceSession(long sessionId) {
        this.sessionId = sessionId;
    }
}
