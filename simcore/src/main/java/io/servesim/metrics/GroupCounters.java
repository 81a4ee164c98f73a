package io.servesim.metrics;

import it.unimi.dsi.fastutil.longs.LongArrayList;
import it.unimi.dsi.fastutil.objects.Object2IntOpenHashMap;
import java.util.ArrayList;
import java.util.List;

/** Request counters per group name (SLO class or tenant), indexed densely in first-seen order. */
final class GroupCounters {
    final Object2IntOpenHashMap<String> index = new Object2IntOpenHashMap<>();
    final List<String> names = new ArrayList<>();
    final LongArrayList injected = new LongArrayList();
    final LongArrayList completed = new LongArrayList();
    final LongArrayList rejected = new LongArrayList();
    final LongArrayList dropped = new LongArrayList();
    final LongArrayList met = new LongArrayList();

    GroupCounters() {
        index.defaultReturnValue(-1);
    }

    int of(String name) {
        int i = index.getInt(name);
        if (i < 0) {
            i = names.size();
            index.put(name, i);
            names.add(name);
            injected.add(0);
            completed.add(0);
            rejected.add(0);
            dropped.add(0);
            met.add(0);
        }
        return i;
    }

    static void inc(LongArrayList counter, int i) {
        counter.set(i, counter.getLong(i) + 1);
    }
}
