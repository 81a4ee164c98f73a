package io.servesim.usercode;

import java.lang.ref.WeakReference;
import java.util.Iterator;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One daemon thread per JVM that samples every live {@link CallBudget} every {@value #TICK_MS} ms and expires those
 * whose current call has lasted longer than their budget. It holds the budgets weakly: a run's budgets leave when the
 * run is collected. Started with the first budget; no thread is started per call or per run, and none at all when no
 * user code runs. The only place a run's outcome may depend on the wall clock (a call over its budget fails).
 */
final class Watchdog {
    /** Sampling period; a call is stopped at most this much after its budget ran out. */
    static final long TICK_MS = 10;

    private static final ConcurrentLinkedQueue<WeakReference<CallBudget>> BUDGETS = new ConcurrentLinkedQueue<>();
    private static final AtomicBoolean STARTED = new AtomicBoolean();

    private Watchdog() {
    }

    /** Watches {@code budget} from now on, starting the thread the first time. */
    static void watch(CallBudget budget) {
        BUDGETS.add(new WeakReference<>(budget));
        if (STARTED.compareAndSet(false, true)) {
            Thread t = new Thread(Watchdog::run, "servesim-call-budget-watchdog");
            t.setDaemon(true);
            t.start();
        }
    }

    private static void run() {
        while (true) {
            try {
                Thread.sleep(TICK_MS);
            } catch (InterruptedException e) {
                continue; // a daemon that must keep watching; nothing interrupts it on purpose
            }
            long now = System.nanoTime();
            for (Iterator<WeakReference<CallBudget>> it = BUDGETS.iterator(); it.hasNext(); ) {
                CallBudget b = it.next().get();
                if (b == null) {
                    it.remove();
                } else {
                    b.sample(now);
                }
            }
        }
    }
}
