package io.servesim.disagg;

import java.util.Arrays;
import java.util.function.Consumer;

/**
 * One KV transfer link with fair-share bandwidth (processor sharing): the {@code k} transfers on it
 * each move {@code bandwidth / k} bytes per microsecond. Shares are recomputed only when a transfer
 * joins or finishes: the link then advances every transfer on it by the bytes moved since its last
 * change and names the next finish time, at which the run pops a {@code KV_TRANSFER} event. A change in
 * between moves that time; the event scheduled before carries the old {@link #version()} and is
 * ignored. Work per change is O(transfers on this link), never over other links.
 *
 * <p>Two equal transfers started together each move at half the bandwidth and both finish after
 * twice the time one alone takes (the bandwidth-sharing test).
 */
final class KvLink {
    /** A transfer with fewer bytes left than this has finished (rounding of microsecond event times). */
    private static final double DONE_BYTES = 1e-3;

    private final double bytesPerUs;
    private Transfer[] active = new Transfer[4];
    private int size;
    private long updatedUs;
    private int version;

    KvLink(double bytesPerUs) {
        this.bytesPerUs = bytesPerUs;
    }

    int size() {
        return size;
    }

    int version() {
        return version;
    }

    /** {@code t} starts moving its bytes now. */
    void add(Transfer t, long nowUs) {
        advance(nowUs);
        if (size == active.length) {
            active = Arrays.copyOf(active, size * 2);
        }
        active[size++] = t;
        version++;
    }

    /** Moves every transfer on the link forward to {@code nowUs} at the current shares. */
    void advance(long nowUs) {
        if (size > 0 && nowUs > updatedUs) {
            double moved = (nowUs - updatedUs) * bytesPerUs / size;
            for (int i = 0; i < size; i++) {
                active[i].remainingBytes -= moved;
            }
        }
        updatedUs = nowUs;
    }

    /** Hands every finished transfer to {@code done}, in the order they joined; shares change if any did. */
    void takeDone(Consumer<Transfer> done) {
        int kept = 0;
        int n = size;
        for (int i = 0; i < n; i++) {
            Transfer t = active[i];
            if (t.remainingBytes <= DONE_BYTES) {
                done.accept(t);
            } else {
                active[kept++] = t;
            }
        }
        Arrays.fill(active, kept, n, null);
        if (kept != n) {
            size = kept;
            version++;
        }
    }

    /** When the transfer with the fewest bytes left finishes at the current shares (only with transfers on it). */
    long nextDoneUs() {
        double least = Double.MAX_VALUE;
        for (int i = 0; i < size; i++) {
            least = Math.min(least, active[i].remainingBytes);
        }
        return updatedUs + Math.max(0, (long) Math.ceil(least * size / bytesPerUs - 1e-9));
    }

    /** Transfers on the link, for end-of-run accounting. */
    void forEach(Consumer<Transfer> sink) {
        for (int i = 0; i < size; i++) {
            sink.accept(active[i]);
        }
    }
}
