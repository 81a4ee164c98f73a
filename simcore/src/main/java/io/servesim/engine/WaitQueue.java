package io.servesim.engine;

import java.util.ArrayDeque;
import java.util.Comparator;
import java.util.PriorityQueue;
import java.util.Queue;

/**
 * An instance's wait queue (vLLM v1 {@code RequestQueue}): preempted requests go back to the
 * front ({@code prepend_request}), everything else is ordered by the scheduling policy: FIFO in an
 * {@link ArrayDeque}, or a heap on the policy's comparator. Policies' orders are time-invariant
 * (see {@code PriorityPolicy}), so no per-step re-sort is needed.
 */
final class WaitQueue {
    private final ArrayDeque<Request> front = new ArrayDeque<>();
    private final Queue<Request> ordered;

    WaitQueue(Comparator<Request> order) {
        this.ordered = order == null ? new ArrayDeque<>() : new PriorityQueue<>(64, order);
    }

    void add(Request r) {
        ordered.add(r);
    }

    /** Puts a preempted request at the head, ahead of all others. */
    void addFront(Request r) {
        front.addFirst(r);
    }

    Request peek() {
        Request r = front.peekFirst();
        return r != null ? r : ordered.peek();
    }

    Request poll() {
        Request r = front.pollFirst();
        return r != null ? r : ordered.poll();
    }

    int size() {
        return front.size() + ordered.size();
    }

    boolean isEmpty() {
        return front.isEmpty() && ordered.isEmpty();
    }

    /** Removes and hands every waiting request to {@code sink} (end of run). */
    void drain(java.util.function.Consumer<Request> sink) {
        Request r;
        while ((r = poll()) != null) {
            sink.accept(r);
        }
    }
}
