package io.servesim.engine;

import java.util.Arrays;

/**
 * The running batch of one engine in admission order (vLLM v1 {@code self.running}): a plain array
 * with a size, because the engine walks it several times per step and the tail is where
 * preemption evicts.
 */
final class RunningBatch {
    private Request[] items;
    private int size;

    RunningBatch(int initialCapacity) {
        items = new Request[Math.max(4, initialCapacity)];
    }

    int size() {
        return size;
    }

    boolean isEmpty() {
        return size == 0;
    }

    Request get(int i) {
        return items[i];
    }

    void add(Request r) {
        if (size == items.length) {
            items = Arrays.copyOf(items, size * 2);
        }
        items[size++] = r;
    }

    Request removeLast() {
        Request r = items[--size];
        items[size] = null;
        return r;
    }

    /** Keeps the first {@code n} slots (callers compact survivors to the front first). */
    void truncate(int n) {
        if (n < size) {
            Arrays.fill(items, n, size, null);
            size = n;
        }
    }

    void set(int i, Request r) {
        items[i] = r;
    }

    void clear() {
        truncate(0);
    }
}
