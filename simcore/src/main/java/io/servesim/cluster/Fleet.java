package io.servesim.cluster;

import io.servesim.engine.Engine;
import it.unimi.dsi.fastutil.longs.LongArrayList;
import java.util.function.IntFunction;

/**
 * The replicas of an autoscaled deployment: {@code 2 x max} slots (room for replicas still draining
 * while new ones start), each free or holding a replica in a
 * {@link ReplicaState}; the ready ones in ascending id order (what routing sees, so ties still go
 * to the lowest id). A replica's engine is built when it becomes READY, so it starts with an empty
 * prefix cache; a freed slot is reused by the next scale-up (lowest free id first), keeping every
 * array O(max replicas). Accounts replica-seconds per state and records a timeline row (time, count
 * per state) at every change.
 */
public final class Fleet {
    /** States in timeline order (columns after the time). */
    public static final ReplicaState[] STATES = ReplicaState.values();

    private final Engine[] engines;
    private final IntFunction<Engine> factory;
    private final ReplicaState[] state;
    private final long[] sinceUs;
    private final int[] generation;
    private final int[] inbound;
    private final int[] ready;
    private int readyCount;
    private final int[] count = new int[STATES.length];
    private final long[] stateUs = new long[STATES.length];
    private final LongArrayList timeline = new LongArrayList();
    private int peak;
    private int slotsUsed;

    /**
     * @param engines shared slot array (length 2 x max replicas); the first {@code initial} slots hold ready engines
     * @param factory builds a fresh engine for a slot id
     */
    public Fleet(Engine[] engines, int initial, IntFunction<Engine> factory) {
        this.engines = engines;
        this.factory = factory;
        int n = engines.length;
        this.state = new ReplicaState[n];
        this.sinceUs = new long[n];
        this.generation = new int[n];
        this.inbound = new int[n];
        this.ready = new int[n];
        for (int i = 0; i < initial; i++) {
            state[i] = ReplicaState.READY;
            ready[readyCount++] = i;
        }
        count[ReplicaState.READY.ordinal()] = initial;
        peak = initial;
        slotsUsed = initial;
        snapshot(0);
    }

    public int slots() { return engines.length; }
    public int readyCount() { return readyCount; }
    /** Engine id of the {@code k}-th ready replica (ascending ids). */
    public int readyId(int k) { return ready[k]; }
    public int count(ReplicaState s) { return count[s.ordinal()]; }
    /** Replicas starting (provisioning, loading or warming). */
    public int starting() {
        return count[ReplicaState.PROVISIONING.ordinal()] + count[ReplicaState.LOADING.ordinal()]
                + count[ReplicaState.WARMING.ordinal()];
    }
    /** Ready + starting: what the bounds constrain. */
    public int current() { return readyCount + starting(); }
    public ReplicaState state(int slot) { return state[slot]; }
    public int generation(int slot) { return generation[slot]; }
    /** Most replicas held at once, in any state. */
    public int peak() { return peak; }
    /** Slots {@code 0 .. slotsUsed() - 1} have held a replica (the lowest free slot is always taken first). */
    public int slotsUsed() { return slotsUsed; }

    /** A routed request is on its way to {@code slot} (an on-demand pull latency); it must not vanish meanwhile. */
    public void inbound(int slot) { inbound[slot]++; }
    public void arrived(int slot) { inbound[slot]--; }
    public int inboundCount(int slot) { return inbound[slot]; }

    /** Takes the lowest free slot into PROVISIONING; -1 when none is free. */
    public int provision(long nowUs) {
        for (int i = 0; i < state.length; i++) {
            if (state[i] == null) {
                generation[i]++;
                slotsUsed = Math.max(slotsUsed, i + 1);
                enter(i, ReplicaState.PROVISIONING, nowUs);
                return i;
            }
        }
        return -1;
    }

    /** Moves {@code slot} to {@code next}; entering READY builds its engine and makes it routable. */
    public void advance(int slot, ReplicaState next, long nowUs) {
        leave(slot, nowUs);
        if (next == ReplicaState.READY) {
            engines[slot] = factory.apply(slot);
            int k = readyCount++;
            while (k > 0 && ready[k - 1] > slot) {
                ready[k] = ready[k - 1];
                k--;
            }
            ready[k] = slot;
        } else if (state[slot] == ReplicaState.READY) {
            int k = 0;
            while (ready[k] != slot) {
                k++;
            }
            System.arraycopy(ready, k + 1, ready, k, readyCount - k - 1);
            readyCount--;
        }
        enter(slot, next, nowUs);
    }

    /** Frees {@code slot} (a cancelled start, or a drained replica); returns its engine (null if it never became ready). */
    public Engine free(int slot, long nowUs) {
        leave(slot, nowUs);
        state[slot] = null;
        generation[slot]++;
        Engine e = engines[slot];
        engines[slot] = null;
        snapshot(nowUs);
        return e;
    }

    private void leave(int slot, long nowUs) {
        ReplicaState s = state[slot];
        stateUs[s.ordinal()] += nowUs - sinceUs[slot];
        count[s.ordinal()]--;
    }

    private void enter(int slot, ReplicaState s, long nowUs) {
        state[slot] = s;
        sinceUs[slot] = nowUs;
        count[s.ordinal()]++;
        int held = 0;
        for (int c : count) {
            held += c;
        }
        peak = Math.max(peak, held);
        snapshot(nowUs);
    }

    /** Appends a timeline row; a row at the same time as the last replaces it. */
    private void snapshot(long nowUs) {
        int width = STATES.length + 1;
        if (!timeline.isEmpty() && timeline.getLong(timeline.size() - width) == nowUs) {
            timeline.size(timeline.size() - width);
        }
        timeline.add(nowUs);
        for (int c : count) {
            timeline.add(c);
        }
    }

    /** Replica-microseconds spent in each state (ordinal order) up to {@code endUs}, open intervals included. */
    public long[] stateUs(long endUs) {
        long[] out = stateUs.clone();
        for (int i = 0; i < state.length; i++) {
            if (state[i] != null && endUs > sinceUs[i]) {
                out[state[i].ordinal()] += endUs - sinceUs[i];
            }
        }
        return out;
    }

    /** The timeline: rows of (time us, then one count per {@link #STATES}), flattened. */
    public long[] timeline() {
        return timeline.toLongArray();
    }
}
