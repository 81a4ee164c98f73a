package io.servesim.kernel;

import java.util.Arrays;

/**
 * The future event list: an array-backed binary min-heap ordered by (time us, kind priority,
 * sequence number), a total order so every run is byte-identical (CloudSim Plus's serial
 * tie-breaker, BLIS's named priorities). Events live in parallel primitive arrays indexed by a
 * recycled slot; the heap moves only {@code int} slot ids, so scheduling allocates nothing once the
 * arrays have grown to the run's peak number of pending events.
 *
 * <p>{@link #schedule} rejects an event earlier than the current clock (INV-3 guard).
 */
public final class EventQueue {
    private long[] time;
    private long[] order;      // kind priority << 48 | sequence
    private int[] target;      // instance id (or -1)
    private Object[] ref;      // request or other payload
    private int[] heap;
    private int[] freeSlots;
    private int freeTop;
    private int size;
    private int capacity;
    private long sequence;
    private long nowUs;
    private long processed;

    // the popped event, readable until the next pop
    private long poppedTime;
    private EventKind poppedKind;
    private int poppedTarget;
    private Object poppedRef;

    public EventQueue(int initialCapacity) {
        capacity = Math.max(16, initialCapacity);
        time = new long[capacity];
        order = new long[capacity];
        target = new int[capacity];
        ref = new Object[capacity];
        heap = new int[capacity];
        freeSlots = new int[capacity];
        for (int i = 0; i < capacity; i++) {
            freeSlots[i] = capacity - 1 - i;
        }
        freeTop = capacity;
    }

    /** The simulated clock: time of the last popped event. */
    public long nowUs() {
        return nowUs;
    }

    public int size() {
        return size;
    }

    public boolean isEmpty() {
        return size == 0;
    }

    /** Events popped so far. */
    public long processed() {
        return processed;
    }

    /** Time of the next event; only valid when not empty. */
    public long peekTimeUs() {
        return time[heap[0]];
    }

    /** Adds an event. Throws if {@code timeUs} is before the clock (an event in the past). */
    public void schedule(long timeUs, EventKind kind, int targetId, Object payload) {
        if (timeUs < nowUs) {
            throw new IllegalStateException("INV-3: event " + kind + " at " + timeUs + " us is before the clock " + nowUs + " us");
        }
        if (freeTop == 0) {
            grow();
        }
        int slot = freeSlots[--freeTop];
        time[slot] = timeUs;
        order[slot] = ((long) kind.priority() << 48) | (sequence++ & 0xFFFF_FFFF_FFFFL);
        target[slot] = targetId;
        ref[slot] = payload;
        int i = size++;
        heap[i] = slot;
        siftUp(i);
    }

    /** Removes the earliest event and advances the clock to its time; read it with the popped* accessors. */
    public void pop() {
        int slot = heap[0];
        int last = heap[--size];
        // Unconditional: when the queue is now empty, last is the popped slot and nothing moves. A branch
        // here is first taken at a cell's last event, and compiled code that never saw it is thrown away.
        heap[0] = last;
        siftDown(0);
        poppedTime = time[slot];
        poppedKind = EventKind.of((int) (order[slot] >>> 48));
        poppedTarget = target[slot];
        poppedRef = ref[slot];
        ref[slot] = null;
        freeSlots[freeTop++] = slot;
        if (poppedTime < nowUs) {
            throw new IllegalStateException("INV-3: clock would go back from " + nowUs + " to " + poppedTime);
        }
        nowUs = poppedTime;
        processed++;
    }

    /** Visits every pending event's kind and payload (in no particular order); used at the horizon. */
    public void forEachPending(java.util.function.BiConsumer<EventKind, Object> visitor) {
        for (int i = 0; i < size; i++) {
            int slot = heap[i];
            visitor.accept(EventKind.of((int) (order[slot] >>> 48)), ref[slot]);
        }
    }

    public long poppedTimeUs() { return poppedTime; }
    public EventKind poppedKind() { return poppedKind; }
    public int poppedTarget() { return poppedTarget; }
    public Object poppedRef() { return poppedRef; }

    private boolean less(int a, int b) {
        long ta = time[a];
        long tb = time[b];
        return ta < tb || (ta == tb && order[a] < order[b]);
    }

    private void siftUp(int i) {
        int slot = heap[i];
        while (i > 0) {
            int parent = (i - 1) >>> 1;
            int p = heap[parent];
            if (!less(slot, p)) {
                break;
            }
            heap[i] = p;
            i = parent;
        }
        heap[i] = slot;
    }

    private void siftDown(int i) {
        int slot = heap[i];
        int half = size >>> 1;
        while (i < half) {
            int child = 2 * i + 1;
            int c = heap[child];
            int right = child + 1;
            if (right < size && less(heap[right], c)) {
                child = right;
                c = heap[child];
            }
            if (!less(c, slot)) {
                break;
            }
            heap[i] = c;
            i = child;
        }
        heap[i] = slot;
    }

    private void grow() {
        int old = capacity;
        capacity = old * 2;
        time = Arrays.copyOf(time, capacity);
        order = Arrays.copyOf(order, capacity);
        target = Arrays.copyOf(target, capacity);
        ref = Arrays.copyOf(ref, capacity);
        heap = Arrays.copyOf(heap, capacity);
        freeSlots = Arrays.copyOf(freeSlots, capacity);
        for (int i = old; i < capacity; i++) {
            freeSlots[freeTop++] = i;
        }
    }
}
