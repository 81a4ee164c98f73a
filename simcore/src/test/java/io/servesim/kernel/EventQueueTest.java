package io.servesim.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class EventQueueTest {
    @Test
    void ordersByTimeThenKindThenInsertion() {
        EventQueue q = new EventQueue(2);
        q.schedule(10, EventKind.STEP, 0, "step@10");
        q.schedule(10, EventKind.ARRIVAL, 0, "arrival@10 first");
        q.schedule(5, EventKind.REQUEST_LEFT, 0, "left@5");
        q.schedule(10, EventKind.ARRIVAL, 0, "arrival@10 second");
        q.schedule(10, EventKind.CLUSTER_ARRIVAL, 0, "cluster@10");
        List<Object> order = new ArrayList<>();
        while (!q.isEmpty()) {
            q.pop();
            order.add(q.poppedRef());
        }
        assertEquals(List.of("left@5", "cluster@10", "arrival@10 first", "arrival@10 second", "step@10"), order);
        assertEquals(10, q.nowUs());
        assertEquals(5, q.processed());
    }

    @Test
    void rejectsEventsInThePast() {
        EventQueue q = new EventQueue(4);
        q.schedule(100, EventKind.STEP, 0, null);
        q.pop();
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> q.schedule(99, EventKind.STEP, 0, null));
        assertEquals(true, e.getMessage().startsWith("INV-3"));
    }

    @Test
    void matchesASortedReferenceOnRandomSchedules() {
        // Interleaved schedule/pop against a sorted list: the heap must pop in (time, kind, seq) order.
        SplittableRandom rnd = new SplittableRandom(7);
        EventQueue q = new EventQueue(1);
        List<long[]> ref = new ArrayList<>();
        long seq = 0;
        for (int round = 0; round < 20_000; round++) {
            if (ref.isEmpty() || rnd.nextInt(3) > 0) {
                long t = q.nowUs() + rnd.nextInt(50);
                int kind = rnd.nextInt(EventKind.values().length);
                q.schedule(t, EventKind.values()[kind], 0, seq);
                ref.add(new long[] {t, kind, seq++});
            } else {
                ref.sort((a, b) -> a[0] != b[0] ? Long.compare(a[0], b[0])
                        : a[1] != b[1] ? Long.compare(a[1], b[1]) : Long.compare(a[2], b[2]));
                long[] expected = ref.remove(0);
                q.pop();
                assertEquals(expected[2], (long) (Long) q.poppedRef());
                assertEquals(expected[0], q.poppedTimeUs());
            }
        }
    }
}
