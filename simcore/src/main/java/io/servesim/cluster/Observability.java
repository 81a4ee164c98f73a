package io.servesim.cluster;

import java.util.EnumMap;
import java.util.Map;

/**
 * How fresh each {@link Signal} is when a policy reads it:
 * <ul>
 *   <li>{@code immediate}: the live value (an event-driven push with no delay);</li>
 *   <li>{@code periodic {interval_us}}: the value scraped at the last multiple of the interval, as a
 *       router polling vLLM's {@code /metrics} sees it; stale in between;</li>
 *   <li>{@code on-demand {latency_us}}: the router pulls the live value when it decides, and the
 *       pull delays the routing decision by {@code latency_us} (the largest latency of the on-demand
 *       signals the routing policy reads, {@link RoutingPolicy#signalsRead}; none when it reads no
 *       on-demand signal).</li>
 * </ul>
 */
public record Observability(Map<Signal, Mode> modes) {
    /** One signal's freshness. */
    public record Mode(Kind kind, long intervalUs, long latencyUs) {
        public static final Mode IMMEDIATE = new Mode(Kind.IMMEDIATE, 0, 0);

        public static Mode periodic(long intervalUs) {
            return new Mode(Kind.PERIODIC, intervalUs, 0);
        }

        public static Mode onDemand(long latencyUs) {
            return new Mode(Kind.ON_DEMAND, 0, latencyUs);
        }
    }

    /** Observability kinds; config names are {@code immediate}, {@code periodic}, {@code on-demand}. */
    public enum Kind {
        IMMEDIATE("immediate"), PERIODIC("periodic"), ON_DEMAND("on-demand");

        private final String configName;

        Kind(String configName) {
            this.configName = configName;
        }

        public String configName() {
            return configName;
        }
    }

    public static final Observability ALL_IMMEDIATE = new Observability(Map.of());

    public Observability {
        modes = Map.copyOf(modes);
    }

    public Mode mode(Signal s) {
        return modes.getOrDefault(s, Mode.IMMEDIATE);
    }

    /** A copy with every signal in {@code mode}. */
    public static Observability uniform(Mode mode) {
        Map<Signal, Mode> m = new EnumMap<>(Signal.class);
        for (Signal s : Signal.all()) {
            m.put(s, mode);
        }
        return new Observability(m);
    }
}
