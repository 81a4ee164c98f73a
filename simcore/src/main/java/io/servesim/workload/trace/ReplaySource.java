package io.servesim.workload.trace;

import io.servesim.engine.Request;
import io.servesim.engine.RequestTags;
import io.servesim.workload.RequestSource;
import it.unimi.dsi.fastutil.longs.Long2ObjectOpenHashMap;

/**
 * What both replay modes share: the reader, request ids in emission order, the request limit and
 * session tagging (a row with a {@code session_id} gets the session's id and its turn index).
 * Session state is O(sessions in the trace); everything else is O(1) or O(in flight).
 */
abstract class ReplaySource implements RequestSource {
    private static final RequestTags TAGS = RequestTags.DEFAULT;

    final TraceReader reader;
    private final long maxRequests;
    private final Long2ObjectOpenHashMap<TraceSession> sessionsById = new Long2ObjectOpenHashMap<>();
    private long nextRequestId;

    ReplaySource(TraceReader reader, long maxRequests) {
        this.reader = reader;
        this.maxRequests = maxRequests;
    }

    /** Whether {@code max_requests} requests have been emitted. */
    final boolean limitReached() {
        return maxRequests > 0 && nextRequestId >= maxRequests;
    }

    /** The session of {@code row}, or null when the row is not part of one. */
    final TraceSession sessionOf(TraceRow row) {
        if (row.sessionId() < 0) {
            return null;
        }
        TraceSession s = sessionsById.get(row.sessionId());
        if (s == null) {
            s = new TraceSession(row.sessionId());
            sessionsById.put(s.sessionId, s);
        }
        return s;
    }

    /** The session with id {@code sessionId}. */
    final TraceSession session(long sessionId) {
        return sessionsById.get(sessionId);
    }

    /** Builds the request for {@code row} arriving at {@code arrivalUs}, tagged with its session and turn. */
    final Request request(TraceRow row, TraceSession session, long arrivalUs) {
        RequestTags tags = TAGS;
        if (session != null) {
            tags = new RequestTags(TAGS.clientId(), TAGS.tenantId(), TAGS.sloClass(), session.sessionId, row.turn());
        }
        return new Request(nextRequestId++, tags, row.prompt(), row.outputTokens(), 0, arrivalUs, 0, true);
    }

    @Override
    public final long skippedLines() {
        return reader.skippedLines();
    }

    @Override
    public final void close() {
        reader.close();
    }
}
