package io.servesim.metrics;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;

/**
 * One output quantity of a run, declared once in the metric catalog ({@link MetricCatalog}): its name (with its unit in
 * it), kind of value, unit, which way is better, what it measures and how it is computed, the upstream metric it
 * mirrors (vLLM's, DistServe's, BLIS's), how values of several cells combine, the object of the run summary JSON it sits
 * in, how it is read from a {@link RunSummary}, whether a sweep's {@code cells/} rows and {@code evaluate}'s raw metrics
 * carry it (every metric is in the run summary JSON), and how a fitness weight scores it. A latency distribution is one
 * metric: in the JSON an object of statistics ({@code ttft_ms: {count, mean, min, p50, p90, p95, p99, max}}), as
 * columns one per declared statistic, named with the statistic before the unit ({@code ttft_p99_ms}).
 *
 * <p>Declared as the settings catalog declares a setting ({@code io.servesim.config.Setting}): a factory per kind, then
 * copies that add the direction, the source, the fitness rule or that the metric is in the JSON only.
 */
public final class Metric {
    /** Value kinds, each with its JSON and Avro shape. */
    public enum Kind {
        /** A 64-bit count ({@code long}). */
        COUNT,
        /** A 32-bit integer ({@code int}). */
        INT,
        /** A number that is always defined ({@code double}). */
        DOUBLE,
        /** A statistic that may be undefined (an empty sample): null rather than NaN in rows, so SQL aggregates skip it. */
        OPTIONAL_DOUBLE,
        /** Text ({@code string}). */
        TEXT,
        /** True or false ({@code boolean}). */
        FLAG,
        /** Statistics of a sample in milliseconds ({@link Distribution}); its columns are {@link #OPTIONAL_DOUBLE}s. */
        DISTRIBUTION
    }

    /** Which way is better: what a search maximises or minimises, and how a table is read. */
    public enum Direction {
        LOWER("lower"), HIGHER("higher"), NEITHER("");

        private final String text;

        Direction(String text) {
            this.text = text;
        }

        /** {@code lower}, {@code higher}, or empty when neither is better (a count of a config, a description). */
        public String text() {
            return text;
        }
    }

    /** The object of the run summary JSON a metric sits in: the top level, or one of its sections. */
    public enum Group {
        RUN(""), KV_TIERS("kv_tiers"), CLUSTER("cluster"), AUTOSCALING("autoscaling"), PD("pd");

        private final String key;

        Group(String key) {
            this.key = key;
        }

        /** The JSON key of the section; empty for the top level. */
        public String key() {
            return key;
        }
    }

    /** A statistic of a distribution that is a column of its own. */
    public enum Stat {
        MEAN("mean", "Mean"), P50("p50", "Median"), P90("p90", "90th percentile"), P99("p99", "99th percentile");

        private final String key;
        private final String phrase;

        Stat(String key, String phrase) {
            this.key = key;
            this.phrase = phrase;
        }

        /** The statistic's key in the distribution's JSON object and in its column's name. */
        public String key() {
            return key;
        }

        /** How a description names it ("99th percentile"). */
        public String phrase() {
            return phrase;
        }

        double of(Distribution d) {
            return switch (this) {
                case MEAN -> d.mean();
                case P50 -> d.p50();
                case P90 -> d.p90();
                case P99 -> d.p99();
            };
        }
    }

    /** How values of several cells (seeds, or axes averaged away) combine. */
    public enum Aggregation {
        /** Arithmetic mean (SQL {@code avg}). */
        MEAN,
        /** Any one value (SQL {@code any_value}; they are equal across the cells combined, e.g. a model name). */
        ANY;

        /**
         * Combines {@code values} (one per cell) as the SQL aggregate does: nulls are skipped and no value left gives
         * null. The mean is a double; any value is the first one.
         */
        public Object combine(List<?> values) {
            if (this == ANY) {
                return values.stream().filter(Objects::nonNull).findFirst().orElse(null);
            }
            double sum = 0;
            int n = 0;
            for (Object v : values) {
                if (v != null) {
                    sum += ((Number) v).doubleValue();
                    n++;
                }
            }
            return n == 0 ? null : sum / n;
        }
    }

    private final String name;
    private final Kind kind;
    private final String unit;
    private final Group group;
    private final Function<RunSummary, ?> value;
    private final String doc;
    private final Direction direction;
    private final String source;
    private final boolean inRows;
    private final List<Stat> stats;
    private final String emptyWhen;
    private final Normalisation fitness;
    /** True when a producer puts its value into the summary ({@link RunSummary.Builder#put}); else derived by {@link #value}. */
    private final boolean stored;

    private Metric(String name, Kind kind, String unit, Group group, Function<RunSummary, ?> value, String doc,
                   Direction direction, String source, boolean inRows, List<Stat> stats, String emptyWhen,
                   Normalisation fitness) {
        this.name = Objects.requireNonNull(name);
        this.kind = Objects.requireNonNull(kind);
        this.unit = Objects.requireNonNull(unit);
        this.group = Objects.requireNonNull(group);
        this.stored = value == null;
        this.value = stored ? s -> s.stored(name) : value;
        this.doc = Objects.requireNonNull(doc);
        this.direction = direction;
        this.source = source;
        this.inRows = inRows;
        this.stats = List.copyOf(stats);
        this.emptyWhen = emptyWhen;
        this.fitness = fitness;
        if (kind == Kind.DISTRIBUTION && (!name.endsWith("_ms") || !unit.equals("ms") || stats.isEmpty() && inRows)) {
            throw new IllegalStateException(name + ": a distribution is in ms, named _ms, with its column statistics");
        }
    }

    private static Metric of(String name, Kind kind, String unit, Group group, Function<RunSummary, ?> value, String doc) {
        return new Metric(name, kind, unit, group, value, doc, Direction.NEITHER, null, true, List.of(), null, null);
    }

    /**
     * A count ({@code unit}: what is counted, e.g. {@code requests}); {@code doc}: what it counts and how. Its producer
     * puts it into the summary ({@link RunSummary.Builder#put}).
     */
    public static Metric count(String name, String unit, Group group, String doc) {
        return of(name, Kind.COUNT, unit, group, null, doc);
    }

    /** A count computed from the summary's other values or parts. */
    public static Metric count(String name, String unit, Group group, Function<RunSummary, Long> value, String doc) {
        return of(name, Kind.COUNT, unit, group, value, doc);
    }

    /** A 32-bit integer, such as a number of replicas. */
    public static Metric integer(String name, String unit, Group group, Function<RunSummary, Integer> value, String doc) {
        return of(name, Kind.INT, unit, group, value, doc);
    }

    /** A number that is always defined, put into the summary by its producer. */
    public static Metric number(String name, String unit, Group group, String doc) {
        return of(name, Kind.DOUBLE, unit, group, null, doc);
    }

    /** A number that is always defined, computed from the summary's other values or parts. */
    public static Metric number(String name, String unit, Group group, Function<RunSummary, Double> value, String doc) {
        return of(name, Kind.DOUBLE, unit, group, value, doc);
    }

    /** A number that may be undefined (NaN in the summary, null in JSON and rows), put into the summary by its producer. */
    public static Metric optional(String name, String unit, Group group, String doc) {
        return of(name, Kind.OPTIONAL_DOUBLE, unit, group, null, doc);
    }

    /** A number that may be undefined, computed from the summary's other values or parts. */
    public static Metric optional(String name, String unit, Group group, Function<RunSummary, Double> value, String doc) {
        return of(name, Kind.OPTIONAL_DOUBLE, unit, group, value, doc);
    }

    /** Text, equal across the cells combined (any value is their aggregate), put into the summary by its producer. */
    public static Metric text(String name, Group group, String doc) {
        return of(name, Kind.TEXT, "", group, null, doc);
    }

    /** Text computed from the summary's other values or parts. */
    public static Metric text(String name, Group group, Function<RunSummary, String> value, String doc) {
        return of(name, Kind.TEXT, "", group, value, doc);
    }

    /** True or false, in the run summary JSON only. */
    public static Metric flag(String name, Group group, Function<RunSummary, Boolean> value, String doc) {
        return of(name, Kind.FLAG, "", group, value, doc).jsonOnly();
    }

    /**
     * A distribution in milliseconds, named {@code X_ms}: {@code doc} is a noun phrase ("time to first token of
     * completed requests") that the columns' descriptions complete ("99th percentile time to first token of completed
     * requests; null when {@code emptyWhen}"), {@code columns} the statistics that are columns
     * ({@code X_mean_ms}, {@code X_p99_ms}).
     */
    public static Metric distribution(String name, Group group, String doc, String emptyWhen, Stat... columns) {
        return distribution(name, group, null, doc, emptyWhen, columns);
    }

    /** A distribution computed from the summary's parts, as {@link #distribution(String, Group, String, String, Stat...)}. */
    public static Metric distribution(String name, Group group, Function<RunSummary, Distribution> value, String doc,
                                      String emptyWhen, Stat... columns) {
        return new Metric(name, Kind.DISTRIBUTION, "ms", group, value, doc, Direction.NEITHER, null, true,
                List.of(columns), Objects.requireNonNull(emptyWhen), null);
    }

    private Metric with(Direction d, String src, boolean rows, Normalisation f) {
        return new Metric(name, kind, unit, group, stored ? null : value, doc, d, src, rows, stats, emptyWhen, f);
    }

    /** This metric, better when lower. */
    public Metric lower() {
        return with(Direction.LOWER, source, inRows, fitness);
    }

    /** This metric, better when higher. */
    public Metric higher() {
        return with(Direction.HIGHER, source, inRows, fitness);
    }

    /** This metric, with the upstream metric or definition it mirrors (a file, a metric name, a paper). */
    public Metric source(String upstream) {
        return with(direction, upstream, inRows, fitness);
    }

    /** This metric, in the run summary JSON only: not a {@code cells/} column nor an {@code evaluate} raw metric. */
    public Metric jsonOnly() {
        return with(direction, source, false, fitness);
    }

    /** This metric (each of its columns, for a distribution), a fitness key scored by {@code rule}. */
    public Metric fitness(Normalisation rule) {
        if (direction == Direction.NEITHER) {
            throw new IllegalStateException(name + ": a fitness key needs a direction (lower or higher is better)");
        }
        return with(direction, source, inRows, rule);
    }

    public String name() {
        return name;
    }

    public Kind kind() {
        return kind;
    }

    /** The unit ({@code ms}, {@code requests/s}, {@code fraction}, ...); empty for text and flags. */
    public String unit() {
        return unit;
    }

    public Group group() {
        return group;
    }

    /** What it measures and how it is computed. */
    public String doc() {
        return doc;
    }

    public Direction direction() {
        return direction;
    }

    /** The upstream metric or definition it mirrors, or null. */
    public String source() {
        return source;
    }

    /** When a distribution is empty (its statistics null), e.g. "no request completed"; null for other kinds. */
    public String emptyWhen() {
        return emptyWhen;
    }

    /** How a fitness weight scores it, or null when it is not a fitness key. */
    public Normalisation fitness() {
        return fitness;
    }

    /** True when its producer puts its value into the summary; false when it is computed from other values or parts. */
    public boolean stored() {
        return stored;
    }

    /** The Java type of its value in a {@link RunSummary}. */
    Class<?> valueType() {
        return switch (kind) {
            case COUNT -> Long.class;
            case INT -> Integer.class;
            case DOUBLE, OPTIONAL_DOUBLE -> Double.class;
            case TEXT -> String.class;
            case FLAG -> Boolean.class;
            case DISTRIBUTION -> Distribution.class;
        };
    }

    /** How values of several cells combine: text and flags by any value, numbers by their mean. */
    public Aggregation aggregation() {
        return kind == Kind.TEXT || kind == Kind.FLAG ? Aggregation.ANY : Aggregation.MEAN;
    }

    /** The value in {@code s}: a number, text, flag or {@link Distribution}. */
    public Object value(RunSummary s) {
        return value.apply(s);
    }

    /** The value as the run summary JSON holds it (a distribution as its object of statistics; NaN renders as null). */
    public Object jsonValue(RunSummary s) {
        Object v = value(s);
        return v instanceof Distribution d ? d.toMap() : v;
    }

    /** Its columns in {@code cells/} and {@code evaluate}: itself, or one per statistic of a distribution; none when JSON only. */
    public List<Column> columns() {
        if (!inRows) {
            return List.of();
        }
        if (kind != Kind.DISTRIBUTION) {
            return List.of(new Column(name, this, null));
        }
        String base = name.substring(0, name.length() - "_ms".length());
        List<Column> out = new ArrayList<>(stats.size());
        for (Stat s : stats) {
            out.add(new Column(base + "_" + s.key() + "_ms", this, s));
        }
        return out;
    }

    @Override
    public String toString() {
        return name;
    }
}
