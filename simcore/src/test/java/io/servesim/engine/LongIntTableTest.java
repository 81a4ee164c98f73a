package io.servesim.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

/** {@link LongIntTable} behaves as a map (checked against {@link HashMap}), through growth and backward-shift removals. */
class LongIntTableTest {
    @Property(tries = 200)
    void behavesAsAMap(@ForAll @Size(max = 400) List<@IntRange(min = 0, max = 5) Integer> ops,
                       @ForAll @Size(max = 400) List<@IntRange(min = 0, max = 60) Integer> keys,
                       @ForAll @IntRange(min = 1, max = 64) int expected) {
        // few distinct keys (0..60, spread by a multiplier so some collide in a small table) and
        // many operations: long probe clusters, removals inside them, and growth from a small start
        LongIntTable t = new LongIntTable(expected);
        Map<Long, Integer> m = new HashMap<>();
        for (int i = 0; i < Math.min(ops.size(), keys.size()); i++) {
            long key = keys.get(i) * 0x10000L;
            int value = i;
            switch (ops.get(i)) {
                case 0, 1 -> {
                    t.put(key, value);
                    m.put(key, value);
                }
                case 2 -> {
                    int before = m.getOrDefault(key, -1);
                    assertEquals(before, t.putIfAbsent(key, value), "putIfAbsent");
                    m.putIfAbsent(key, value);
                }
                case 3 -> assertEquals(m.containsKey(key) ? (int) m.remove(key) : -1, t.remove(key));
                case 4 -> {
                    int v = m.getOrDefault(key, -1);
                    int asked = v >= 0 && i % 2 == 0 ? v : v + 1;
                    int removed = t.remove(key, asked);
                    assertEquals(v >= 0 && asked == v ? v : -1, removed, "remove(key, value)");
                    if (removed >= 0) {
                        m.remove(key);
                    }
                }
                default -> assertEquals(m.getOrDefault(key, -1), t.get(key));
            }
            assertEquals(m.size(), t.size());
        }
        for (long k = 0; k <= 60; k++) {
            assertEquals(m.getOrDefault(k * 0x10000L, -1), t.get(k * 0x10000L));
        }
        Set<Long> seen = new HashSet<>();
        t.forEachKey(seen::add);
        assertEquals(m.keySet(), seen);
    }

    @Test
    void zeroKeyAndZeroValueAreOrdinary() {
        // value 0 is stored as 1 (0 marks an empty slot) and key 0 is a key like any other
        LongIntTable t = new LongIntTable(4);
        t.put(0L, 0);
        assertEquals(0, t.get(0L));
        assertEquals(1, t.size());
        assertEquals(0, t.remove(0L));
        assertEquals(-1, t.get(0L));
        assertEquals(0, t.size());
    }
}
