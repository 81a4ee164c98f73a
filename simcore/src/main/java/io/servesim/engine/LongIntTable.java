package io.servesim.engine;

/**
 * An open-addressing hash map from {@code long} keys (block hashes) to non-negative {@code int}
 * values, built for the prefix indexes' access pattern (a lookup, insert or removal per KV block
 * touched, over tables larger than the cache): linear probing with each key stored next to its
 * value in one {@code long[]}, so a probe touches one cache line where a map with separate key and
 * value arrays touches two; Fibonacci hashing of the key's bits to a slot; removal by backward
 * shift (Knuth's Algorithm R, as fastutil's {@code shiftKeys}), so no tombstones accumulate. It
 * grows (doubling) above half full. Absent keys read as -1. Nothing is allocated per call.
 */
public final class LongIntTable {
    private static final long PHI = 0x9E3779B97F4A7C15L;
    /** Key and value interleaved: slot {@code i} is {@code table[2i]} (key) and {@code table[2i + 1]} (value + 1; 0 = empty). */
    private long[] table;
    private int mask;
    private int shift;
    private int size;

    /** A table sized for {@code expected} entries without growing (at most half full). */
    public LongIntTable(int expected) {
        allocate(capacityFor(expected));
    }

    /** Slots of a table sized for {@code expected} entries: the power of two at least twice that. */
    private static int capacityFor(int expected) {
        return Integer.highestOneBit(Math.max(4, expected) * 2 - 1) << 1;
    }

    /** Heap bytes of the slot array of a table sized for {@code expected} entries (for start-up memory checks). */
    static long heapBytes(int expected) {
        return 2L * Long.BYTES * capacityFor(expected);
    }

    private void allocate(int capacity) {
        table = new long[2 * capacity];
        mask = capacity - 1;
        shift = 64 - Integer.numberOfTrailingZeros(capacity);
    }

    public int size() {
        return size;
    }

    private int home(long key) {
        return (int) ((key * PHI) >>> shift);
    }

    /** Reads {@code key}'s home slot and returns its word (a prefetch: a caller about to insert many keys touches them all first). */
    long touch(long key) {
        return table[2 * home(key) + 1];
    }

    /** The value of {@code key}, or -1. */
    public int get(long key) {
        for (int pos = home(key); ; pos = (pos + 1) & mask) {
            long stored = table[2 * pos + 1];
            if (stored == 0) {
                return -1;
            }
            if (table[2 * pos] == key) {
                return (int) stored - 1;
            }
        }
    }

    public boolean containsKey(long key) {
        return get(key) >= 0;
    }

    /** Maps {@code key} to {@code value} (>= 0), replacing any value it had. */
    public void put(long key, int value) {
        int pos = find(key, value);
        if (pos >= 0) {
            table[2 * pos + 1] = value + 1L;
        }
    }

    /** Maps {@code key} to {@code value} (>= 0) unless it has a value; returns that value, or -1 when it was added. One probe sequence. */
    public int putIfAbsent(long key, int value) {
        int pos = find(key, value);
        return pos < 0 ? -1 : (int) table[2 * pos + 1] - 1;
    }

    /** The slot holding {@code key}, or -1 after adding it with {@code value}. */
    private int find(long key, int value) {
        if (value < 0) {
            throw new IllegalArgumentException("negative value " + value);
        }
        int pos = home(key);
        for (; table[2 * pos + 1] != 0; pos = (pos + 1) & mask) {
            if (table[2 * pos] == key) {
                return pos;
            }
        }
        table[2 * pos] = key;
        table[2 * pos + 1] = value + 1L;
        if (++size > (mask + 1) / 2) {
            grow();
        }
        return -1;
    }

    /** Removes {@code key}; returns its value, or -1 if it was absent. */
    public int remove(long key) {
        return remove(key, -1);
    }

    /** Removes {@code key} if it maps to {@code value} (any value when {@code value} is -1); returns the value removed, or -1. */
    public int remove(long key, int value) {
        for (int pos = home(key); ; pos = (pos + 1) & mask) {
            long stored = table[2 * pos + 1];
            if (stored == 0) {
                return -1;
            }
            if (table[2 * pos] == key) {
                if (value >= 0 && stored != value + 1L) {
                    return -1;
                }
                size--;
                shiftBack(pos);
                return (int) stored - 1;
            }
        }
    }

    /** Visits every key (in no particular order); {@code visitor} must not change the table. */
    public void forEachKey(java.util.function.LongConsumer visitor) {
        for (int pos = 0; pos <= mask; pos++) {
            if (table[2 * pos + 1] != 0) {
                visitor.accept(table[2 * pos]);
            }
        }
    }

    /** Empties slot {@code pos}, moving back the entries after it that probed past it. */
    private void shiftBack(int pos) {
        for (;;) {
            int last = pos;
            pos = (pos + 1) & mask;
            for (;;) {
                if (table[2 * pos + 1] == 0) {
                    table[2 * last + 1] = 0;
                    return;
                }
                int home = home(table[2 * pos]);
                // the entry at pos may move to last unless its home lies cyclically in (last, pos]
                if (last <= pos ? (last >= home || home > pos) : (last >= home && home > pos)) {
                    break;
                }
                pos = (pos + 1) & mask;
            }
            table[2 * last] = table[2 * pos];
            table[2 * last + 1] = table[2 * pos + 1];
        }
    }

    private void grow() {
        long[] old = table;
        allocate(2 * (mask + 1));
        for (int i = 0; i < old.length; i += 2) {
            if (old[i + 1] != 0) {
                int pos = home(old[i]);
                while (table[2 * pos + 1] != 0) {
                    pos = (pos + 1) & mask;
                }
                table[2 * pos] = old[i];
                table[2 * pos + 1] = old[i + 1];
            }
        }
    }
}
