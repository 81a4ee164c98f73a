package io.servesim.engine;

import java.util.Arrays;
import java.util.Comparator;

/**
 * A binary min-heap of requests on a comparator (array-backed, no per-operation allocation), with
 * {@link #peekSecond} for head-of-line blocking detection (the runner-up is a child of the root).
 */
final class RequestHeap {
    private final Comparator<Request> order;
    private Request[] heap = new Request[64];
    private int size;

    RequestHeap(Comparator<Request> order) {
        this.order = order;
    }

    int size() {
        return size;
    }

    void add(Request r) {
        if (size == heap.length) {
            heap = Arrays.copyOf(heap, size * 2);
        }
        int i = size++;
        while (i > 0) {
            int parent = (i - 1) >>> 1;
            if (order.compare(r, heap[parent]) >= 0) {
                break;
            }
            heap[i] = heap[parent];
            i = parent;
        }
        heap[i] = r;
    }

    Request peek() {
        return size == 0 ? null : heap[0];
    }

    /** The element that would be at the head after one poll, or null. */
    Request peekSecond() {
        if (size < 2) {
            return null;
        }
        if (size == 2) {
            return heap[1];
        }
        return order.compare(heap[1], heap[2]) <= 0 ? heap[1] : heap[2];
    }

    Request poll() {
        if (size == 0) {
            return null;
        }
        Request top = heap[0];
        Request last = heap[--size];
        heap[size] = null;
        if (size > 0) {
            int i = 0;
            int half = size >>> 1;
            while (i < half) {
                int child = 2 * i + 1;
                int right = child + 1;
                if (right < size && order.compare(heap[right], heap[child]) < 0) {
                    child = right;
                }
                if (order.compare(last, heap[child]) <= 0) {
                    break;
                }
                heap[i] = heap[child];
                i = child;
            }
            heap[i] = last;
        }
        return top;
    }
}
