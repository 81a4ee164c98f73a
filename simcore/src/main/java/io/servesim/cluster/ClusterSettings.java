package io.servesim.cluster;

import io.servesim.config.Setting;
import io.servesim.config.ValueType;
import java.util.Arrays;
import java.util.List;

/**
 * The {@code cluster:} settings: the control plane's decision latencies (BLIS's {@code --admission-latency} and
 * {@code --routing-latency}: BLIS macro plan, inference-sim/inference-sim @ 7d4e8bac,
 * {@code docs/plans/2026-02-11-macro-implementation-plan-v2.md}) and how fresh each instance signal is when a policy
 * reads it ({@link Observability}: pushed, scraped from vLLM's {@code /metrics} as a router polling it sees it, or pulled
 * at decision time). Bound by {@link ClusterBinder}.
 */
public final class ClusterSettings {
    private static final String CONTROL_PLANE = "a decision taking over a minute is not a serving system";
    /** The observability modes, as configs name them. */
    static final List<String> MODES = Arrays.stream(Observability.Kind.values()).map(Observability.Kind::configName).toList();

    public static final Setting<Long> ADMISSION_LATENCY = Setting.of("cluster.admission_latency_us",
            ValueType.duration(0, 60_000_000L).bareMicros().because(CONTROL_PLANE), 0L,
            "Time from a request's arrival at the cluster to its admission decision.")
            .flag("--admission-latency-us");
    public static final Setting<Long> ROUTING_LATENCY = Setting.of("cluster.routing_latency_us",
            ValueType.duration(0, 60_000_000L).bareMicros().because(CONTROL_PLANE), 0L,
            "Time from admission to the routing decision.")
            .flag("--routing-latency-us");
    public static final Setting<String> MODE = Setting.of("cluster.observability.<signal>.mode",
            ValueType.choice(MODES), Observability.Kind.IMMEDIATE.configName(),
            "How fresh a signal is when a policy reads it: immediate (the live value), periodic (scraped every interval_us)"
                    + " or on-demand (pulled at decision time, delaying it by latency_us). <signal> is default (every"
                    + " signal not given, whose mode it sets) or one of " + signalNames() + "; the mode alone may be"
                    + " written as the signal's value (queue_depth: on-demand).");
    public static final Setting<Long> INTERVAL = Setting.derived("cluster.observability.<signal>.interval_us",
            ValueType.duration(1, 3_600_000_000L).bareMicros().because("a router scrapes /metrics every few seconds"
                    + " (Prometheus: 15 s to 1 m); a signal refreshed less than hourly no longer describes the instance"),
            "required with mode periodic", "The scrape interval of a periodic signal: a policy sees the value of the last"
                    + " multiple of it.");
    public static final Setting<Long> LATENCY = Setting.of("cluster.observability.<signal>.latency_us",
            ValueType.duration(0, 60_000_000L).bareMicros().because(CONTROL_PLANE), 0L,
            "The pull of an on-demand signal: it delays the routing decision (the largest of the signals the router reads).");

    /** Every cluster setting, in documentation order. */
    public static final List<Setting<?>> ALL = List.of(ADMISSION_LATENCY, ROUTING_LATENCY, MODE, INTERVAL, LATENCY);

    private ClusterSettings() {
    }

    private static String signalNames() {
        return String.join(", ", Arrays.stream(Signal.values()).map(Signal::configName).toList());
    }
}
