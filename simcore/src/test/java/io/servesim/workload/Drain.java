package io.servesim.workload;

import io.servesim.engine.Request;
import java.util.ArrayList;
import java.util.List;

/** Pulls a source's open-loop requests (no engine, so no follow-up turns). */
final class Drain {
    private Drain() {
    }

    static List<Request> all(RequestSource source) {
        List<Request> out = new ArrayList<>();
        for (Request r = source.next(); r != null; r = source.next()) {
            out.add(r);
        }
        source.close();
        return out;
    }

    /** What a request is, without its run-wide ids: for comparing one client's requests across workloads. */
    record Shape(String client, long arrivalUs, int inputTokens, long promptHash, int outputTokens, double priority,
                 boolean streaming, int turn) {
        static Shape of(Request r) {
            return new Shape(r.tags().clientId(), r.arrivalUs(), r.inputTokens(),
                    r.input().rangeHash(0, 0, r.inputTokens()), r.outputTokens(), r.priority(), r.streaming(),
                    r.tags().turnIndex());
        }
    }
}
