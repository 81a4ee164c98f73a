package io.servesim.policy.code;

import io.servesim.engine.Request;
import io.servesim.policy.api.RequestView;

/** A request as the policy API shows it: one view per adapter, pointed at the request of the call (no allocation). */
final class RequestAdapter implements RequestView {
    private Request r;

    RequestAdapter of(Request request) {
        this.r = request;
        return this;
    }

    @Override public long id() { return r.id(); }
    @Override public long arrivalUs() { return r.arrivalUs(); }
    @Override public int inputTokens() { return r.inputTokens(); }
    @Override public int maxOutputTokens() { return r.maxOutputTokens(); }
    @Override public String clientId() { return r.tags().clientId(); }
    @Override public String tenantId() { return r.tags().tenantId(); }
    @Override public String sloClass() { return r.tags().sloClass(); }
    @Override public long sessionId() { return r.tags().sessionId(); }
    @Override public int turnIndex() { return r.tags().turnIndex(); }
    @Override public double priority() { return r.priority(); }
    @Override public double priorityRank() { return r.priorityScore(); }
    @Override public boolean streaming() { return r.streaming(); }
}
