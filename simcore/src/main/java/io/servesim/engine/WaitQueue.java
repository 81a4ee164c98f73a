package io.servesim.engine;

import java.util.ArrayDeque;
import java.util.Comparator;
import java.util.Iterator;
import java.util.function.Consumer;

/**
 * An instance's wait queue (vLLM v1 {@code RequestQueue}): preempted requests go back to the
 * front ({@code prepend_request}), everything else is ordered by the scheduling policy: FIFO in an
 * {@link ArrayDeque}, or a {@link RequestHeap} on the policy's comparator. Policies' orders are
 * time-invariant (see {@code PriorityPolicy}), so no per-step re-sort is needed. Tracks the prompt
 * tokens waiting (for the estimated-wait signal).
 */
final class WaitQueue {
    private final ArrayDeque<Request> front = new ArrayDeque<>();
    /** P/D: requests whose transferred KV arrived (they need no blocks), served before all others, in arrival order. */
    private final ArrayDeque<Request> received = new ArrayDeque<>();
    private final ArrayDeque<Request> fifo;
    private final RequestHeap heap;
    private long promptTokens;

    WaitQueue(Comparator<Request> order) {
        this.fifo = order == null ? new ArrayDeque<>() : null;
        this.heap = order == null ? null : new RequestHeap(order);
    }

    void add(Request r) {
        promptTokens += r.numTokens();
        if (fifo != null) {
            fifo.addLast(r);
        } else {
            heap.add(r);
        }
    }

    /** Puts a preempted request at the head, ahead of all others. */
    void addFront(Request r) {
        promptTokens += r.numTokens();
        front.addFirst(r);
    }

    /**
     * A request whose KV was transferred here (P/D): it holds its blocks and needs none to be admitted,
     * so it goes ahead of every other (none can block it at the head while holding the blocks it needs).
     */
    void addReceived(Request r) {
        promptTokens += r.numTokens();
        received.addLast(r);
    }

    Request peek() {
        if (!received.isEmpty()) {
            return received.peekFirst();
        }
        Request r = front.peekFirst();
        if (r != null) {
            return r;
        }
        return fifo != null ? fifo.peekFirst() : heap.peek();
    }

    /** The request behind the head, or null. */
    Request peekSecond() {
        if (front.size() >= 2) {
            Iterator<Request> it = front.iterator();
            it.next();
            return it.next();
        }
        if (front.size() == 1) {
            return fifo != null ? fifo.peekFirst() : heap.peek();
        }
        if (fifo != null) {
            if (fifo.size() < 2) {
                return null;
            }
            Iterator<Request> it = fifo.iterator();
            it.next();
            return it.next();
        }
        return heap.peekSecond();
    }

    Request poll() {
        Request r = received.pollFirst();
        if (r == null) {
            r = front.pollFirst();
        }
        if (r == null) {
            r = fifo != null ? fifo.pollFirst() : heap.poll();
        }
        if (r != null) {
            promptTokens -= r.numTokens();
        }
        return r;
    }

    int size() {
        return received.size() + front.size() + (fifo != null ? fifo.size() : heap.size());
    }

    boolean isEmpty() {
        return size() == 0;
    }

    /** Tokens the waiting requests must (re)compute, summed. */
    long promptTokens() {
        return promptTokens;
    }

    /** Removes and hands every waiting request to {@code sink} (end of run). */
    void drain(Consumer<Request> sink) {
        Request r;
        while ((r = poll()) != null) {
            sink.accept(r);
        }
    }
}
