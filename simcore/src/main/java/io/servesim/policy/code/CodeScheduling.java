package io.servesim.policy.code;

import io.servesim.engine.Request;
import io.servesim.engine.SchedulingPolicy;
import java.util.Comparator;

/**
 * {@code scheduler: code}: an {@code io.servesim.policy.api.SchedulingPolicy} given as source, as the wait queue's
 * order; requests it ranks equal keep their enqueue order, as {@code sjf}'s and {@code priority-fcfs}'s do.
 */
final class CodeScheduling implements SchedulingPolicy {
    private final Comparator<Request> order;

    CodeScheduling(Loaded<io.servesim.policy.api.SchedulingPolicy> code) {
        RequestAdapter a = new RequestAdapter();
        RequestAdapter b = new RequestAdapter();
        this.order = (x, y) -> {
            int c;
            code.budget().enter();
            try {
                c = code.policy().compare(a.of(x), b.of(y));
            } catch (Throwable t) {
                throw code.budget().failed("compare", t, code.file());
            }
            code.budget().exit("compare");
            return c != 0 ? c : Long.compare(x.waitOrder(), y.waitOrder());
        };
    }

    @Override
    public Comparator<Request> order() {
        return order;
    }
}
