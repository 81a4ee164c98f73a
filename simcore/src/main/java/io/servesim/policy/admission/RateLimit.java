package io.servesim.policy.admission;

import io.servesim.cluster.AdmissionDecision;
import io.servesim.cluster.AdmissionPolicy;
import io.servesim.config.ConfigException;
import io.servesim.engine.Request;
import io.servesim.policy.PolicyContext;
import io.servesim.policy.PolicySpec;
import it.unimi.dsi.fastutil.longs.Long2LongOpenHashMap;
import java.util.Set;

/**
 * {@code rate-limit {max_rps, max_delay_us}}: rate limiting by pacing: at most {@code max_rps} requests per second enter, one every
 * {@code 1/max_rps} seconds. A request arriving before the next free slot reserves it and is
 * DELAYED until then (a leaky-bucket shaper, like NGINX {@code limit_req} with {@code delay});
 * if its wait would exceed {@code max_delay_us} (default unlimited) it is rejected instead.
 */
final class RateLimit implements AdmissionPolicy {
    private static final AdmissionDecision TOO_LATE = AdmissionDecision.reject("rate-limit: wait exceeds max_delay_us");

    private final long gapUs;
    private final long maxDelayUs;
    private final Long2LongOpenHashMap reservedSlotUs = new Long2LongOpenHashMap();
    private long nextFreeUs = Long.MIN_VALUE;

    private RateLimit(double maxRps, long maxDelayUs) {
        this.gapUs = Math.max(1, Math.round(1e6 / maxRps));
        this.maxDelayUs = maxDelayUs;
    }

    static AdmissionPolicy create(PolicySpec spec, PolicyContext ctx) {
        spec.requireOnly(Set.of("max_rps", "max_delay_us"));
        double rps = spec.positive("max_rps", Double.NaN);
        double maxDelay = spec.number("max_delay_us", Long.MAX_VALUE);
        if (maxDelay < 0) {
            throw new ConfigException(spec.path() + ".params.max_delay_us", "must be >= 0");
        }
        if (maxDelay != Math.rint(maxDelay)) {
            throw new ConfigException(spec.path() + ".params.max_delay_us",
                    "must be a whole number of microseconds, got " + maxDelay);
        }
        return new RateLimit(rps, (long) Math.min(Long.MAX_VALUE, maxDelay));
    }

    @Override
    public AdmissionDecision decide(Request r, long nowUs) {
        if (reservedSlotUs.containsKey(r.id())) {
            long slot = reservedSlotUs.remove(r.id());
            if (nowUs >= slot) {
                return AdmissionDecision.ADMIT;
            }
            reservedSlotUs.put(r.id(), slot);
            return AdmissionDecision.delay(slot - nowUs, "rate-limit: paced");
        }
        long slot = Math.max(nowUs, nextFreeUs);
        if (slot - nowUs > maxDelayUs) {
            return TOO_LATE;
        }
        nextFreeUs = slot + gapUs;
        if (slot == nowUs) {
            return AdmissionDecision.ADMIT;
        }
        reservedSlotUs.put(r.id(), slot);
        return AdmissionDecision.delay(slot - nowUs, "rate-limit: paced");
    }
}
