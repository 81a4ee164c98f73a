package io.servesim.metrics;

import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * Aggregates of one simulation run: the value of every metric of the catalog ({@link MetricCatalog}), keyed by its
 * name, and the parts whose breakdowns the run summary JSON also shows (the KV tiers', the cluster's, autoscaling's,
 * P/D's and the agentic sessions'). Every output reads it through the catalog: the run summary JSON
 * ({@link #toMap()}), {@code cells/} rows, {@code evaluate}'s raw metrics and the fitness.
 *
 * <p>A metric's producer puts its value by name ({@link Builder#put}); {@link Builder#build} refuses a summary that
 * lacks a stored metric or holds a value of the wrong kind, so a new metric is its catalog declaration plus the line
 * of its producer that puts it. Readers ask by the same name: {@code s.count("completed")},
 * {@code s.distribution("ttft_ms").p99()}, for a stored metric as for one computed from the parts
 * ({@code s.number("slo_attainment")}). Latencies in ms; rates per second of simulated time over {@code duration_s}
 * (first arrival to the end of the run).
 */
public final class RunSummary {
    private final Map<String, Object> stored;
    private final KvTierSummary kvTiers;
    private final ClusterSummary cluster;
    private final ScalingSummary autoscaling;
    private final PdSummary pd;
    private final Map<String, SessionSummary> sessionsByClient;

    private RunSummary(Builder b) {
        this.stored = Map.copyOf(b.stored);
        this.kvTiers = Objects.requireNonNull(b.kvTiers, "kvTiers");
        this.cluster = Objects.requireNonNull(b.cluster, "cluster");
        this.autoscaling = Objects.requireNonNull(b.autoscaling, "autoscaling");
        this.pd = Objects.requireNonNull(b.pd, "pd");
        this.sessionsByClient = Map.copyOf(b.sessionsByClient);
    }

    /** An empty builder: every stored metric and every part must be given before {@link Builder#build}. */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder holding this summary's values and parts, to replace some of them. */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.stored.putAll(stored);
        return b.kvTiers(kvTiers).cluster(cluster).autoscaling(autoscaling).pd(pd).sessions(sessionsByClient);
    }

    /** The value of the catalog metric {@code name}: a number, text, flag or {@link Distribution}. */
    public Object value(String name) {
        return MetricCatalog.metric(name).value(this);
    }

    /** A count metric ({@link Metric.Kind#COUNT}). */
    public long count(String name) {
        return (Long) typed(name, Metric.Kind.COUNT);
    }

    /** A 32-bit integer metric ({@link Metric.Kind#INT}). */
    public int integer(String name) {
        return (Integer) typed(name, Metric.Kind.INT);
    }

    /** A number metric ({@link Metric.Kind#DOUBLE} or, NaN when undefined, {@link Metric.Kind#OPTIONAL_DOUBLE}). */
    public double number(String name) {
        Metric m = MetricCatalog.metric(name);
        if (m.kind() != Metric.Kind.DOUBLE && m.kind() != Metric.Kind.OPTIONAL_DOUBLE) {
            throw wrongKind(m, "a number");
        }
        return (Double) m.value(this);
    }

    /** A text metric. */
    public String text(String name) {
        return (String) typed(name, Metric.Kind.TEXT);
    }

    /** A true-or-false metric. */
    public boolean flag(String name) {
        return (Boolean) typed(name, Metric.Kind.FLAG);
    }

    /** A distribution metric (milliseconds). */
    public Distribution distribution(String name) {
        return (Distribution) typed(name, Metric.Kind.DISTRIBUTION);
    }

    private Object typed(String name, Metric.Kind kind) {
        Metric m = MetricCatalog.metric(name);
        if (m.kind() != kind) {
            throw wrongKind(m, kind.name().toLowerCase(Locale.ROOT));
        }
        return m.value(this);
    }

    private static IllegalArgumentException wrongKind(Metric m, String asked) {
        return new IllegalArgumentException("metric " + m.name() + " is a " + kindName(m) + ", not " + asked);
    }

    private static String kindName(Metric m) {
        return m.kind().name().toLowerCase(Locale.ROOT);
    }

    /** The value a producer put for the stored metric {@code name} (read through {@link Metric#value}). */
    Object stored(String name) {
        return stored.get(name);
    }

    /** The KV cache per tier (GPU, CPU) and the transfers between them. */
    public KvTierSummary kvTiers() {
        return kvTiers;
    }

    /** Cluster-level aggregates and their breakdowns by SLO class and tenant. */
    public ClusterSummary cluster() {
        return cluster;
    }

    /** Fleet size over the run and its cost (a fixed fleet's too). */
    public ScalingSummary autoscaling() {
        return autoscaling;
    }

    /** The architecture (aggregated or P/D), goodput per GPU, P/D pools and KV transfers. */
    public PdSummary pd() {
        return pd;
    }

    /** Agentic sessions per client id (empty when the workload has none). */
    public Map<String, SessionSummary> sessionsByClient() {
        return sessionsByClient;
    }

    /** The run summary JSON as an ordered map, generated from the metric catalog ({@link SummaryJson}). */
    public Map<String, Object> toMap() {
        return SummaryJson.of(this);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof RunSummary s && stored.equals(s.stored) && kvTiers.equals(s.kvTiers)
                && cluster.equals(s.cluster) && autoscaling.equals(s.autoscaling) && pd.equals(s.pd) && sessionsByClient.equals(s.sessionsByClient);
    }

    @Override
    public int hashCode() {
        return Objects.hash(stored, kvTiers, cluster, autoscaling, pd, sessionsByClient);
    }

    @Override
    public String toString() {
        return "RunSummary" + toMap();
    }

    /** Collects a summary's values from their producers; each stored metric is put once by name. */
    public static final class Builder {
        private final Map<String, Object> stored = new HashMap<>();
        private KvTierSummary kvTiers;
        private ClusterSummary cluster;
        private ScalingSummary autoscaling;
        private PdSummary pd;
        private Map<String, SessionSummary> sessionsByClient = Map.of();

        private Builder() {
        }

        /**
         * Puts the value of the stored metric {@code name}: a {@code long} for a count, an {@code int}, a {@code double},
         * a {@code String}, a {@code boolean} or a {@link Distribution}, as the catalog declares its kind.
         */
        public Builder put(String name, Object value) {
            Metric m = MetricCatalog.metric(name);
            if (!m.stored()) {
                throw new IllegalArgumentException("metric " + name + " is computed from the summary, not put");
            }
            if (!m.valueType().isInstance(value)) {
                throw new IllegalArgumentException("metric " + name + " is a " + kindName(m) + " ("
                        + m.valueType().getSimpleName() + "), not " + (value == null ? "null" : value.getClass().getSimpleName()));
            }
            stored.put(name, value);
            return this;
        }

        /** The value put for {@code name}, or null. */
        Object get(String name) {
            return stored.get(name);
        }

        public Builder kvTiers(KvTierSummary tiers) {
            this.kvTiers = tiers;
            return this;
        }

        public Builder cluster(ClusterSummary c) {
            this.cluster = c;
            return this;
        }

        public Builder autoscaling(ScalingSummary scaling) {
            this.autoscaling = scaling;
            return this;
        }

        public Builder pd(PdSummary p) {
            this.pd = p;
            return this;
        }

        /** The agentic session aggregates per client id. */
        public Builder sessions(Map<String, SessionSummary> byClient) {
            this.sessionsByClient = byClient;
            return this;
        }

        /** The summary; refused when a stored metric of the catalog or a part was not given. */
        public RunSummary build() {
            List<String> missing = MetricCatalog.ALL.stream().filter(Metric::stored).map(Metric::name)
                    .filter(n -> !stored.containsKey(n)).toList();
            if (!missing.isEmpty()) {
                throw new IllegalStateException("run summary without the metrics " + missing);
            }
            return new RunSummary(this);
        }
    }
}
