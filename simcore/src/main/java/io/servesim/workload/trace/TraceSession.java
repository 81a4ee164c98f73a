package io.servesim.workload.trace;

import java.util.ArrayDeque;

/** Replay state of one trace session: its id, next turn, and (concurrency mode) turns waiting for their predecessor. */
final class TraceSession {
    final long sessionId;
    int nextTurn;
    /** A turn of this session is in flight (or unlocked and about to be). */
    boolean busy;
    /** A turn was dropped: the session's remaining rows are not replayed. */
    boolean ended;
    long lastCompletionUs = -1;
    final ArrayDeque<TraceRow> waiting = new ArrayDeque<>(2);

    TraceSession(long sessionId) {
        this.sessionId = sessionId;
    }
}
