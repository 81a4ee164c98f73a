package io.servesim.policy.admission;

import io.servesim.cluster.AdmissionDecision;
import io.servesim.cluster.AdmissionPolicy;
import io.servesim.config.Setting;
import io.servesim.config.ValueType;
import io.servesim.engine.Request;
import io.servesim.policy.PolicyContext;
import io.servesim.policy.PolicySpec;
import it.unimi.dsi.fastutil.longs.Long2LongOpenHashMap;
import java.util.List;

/**
 * {@code rate-limit {max_rps, max_delay_us}}: rate limiting by pacing: at most {@code max_rps} requests per second enter, one every
 * {@code 1/max_rps} seconds. A request arriving before the next free slot reserves it and is
 * DELAYED until then (a leaky-bucket shaper, like NGINX {@code limit_req} with {@code delay});
 * if its wait would exceed {@code max_delay_us} (default unlimited) it is rejected instead.
 */
final class RateLimit implements AdmissionPolicy {
    private static final String AT = "policies.admission[rate-limit].params.";
    static final Setting<Double> MAX_RPS = Setting.required(AT + "max_rps", ValueType.real(0, 1e6).above().in("requests/s",
            "slots are whole microseconds apart: above 10^6 requests/s they would be closer"),
            "Requests admitted per second at most, one every 1/max_rps seconds.");
    static final Setting<Long> MAX_DELAY = Setting.derived(AT + "max_delay_us", ValueType.duration(0, 3_600_000_000L)
                    .bareMicros().because("a request held at the door for over an hour has long been abandoned by its client"),
            "unlimited", "A request whose wait for its slot would exceed this is rejected instead.");
    static final List<Setting<?>> PARAMS = List.of(MAX_RPS, MAX_DELAY);

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
        Long maxDelayUs = spec.get(MAX_DELAY);
        return new RateLimit(spec.require(MAX_RPS), maxDelayUs == null ? Long.MAX_VALUE : maxDelayUs);
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
