package io.servesim.config;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a {@link Setting} holds: the kind of value, its unit, its valid range and why the range is what it is. One
 * parser per kind, so every key of a kind accepts the same forms: a duration is written with a unit anywhere
 * ({@code 500us}, {@code 2.5ms}, {@code 30s}; {@link Durations}), and a key whose name carries its unit
 * ({@code admission_latency_us}) also takes a bare number in it; a bandwidth is written with a unit ({@code 64GB/s},
 * {@code 400Gb/s}; {@link Bandwidths}) or as a bare number of GB/s; a mapping of names to values ({@code class_scores})
 * parses each value with one type. A value outside its range is refused naming the range and the reason
 * ({@code must be in [0.01, 10000] GB/s, got 0.000001 (...)}).
 *
 * @param <T> the bound value's Java type
 */
public abstract sealed class ValueType<T> {
    private final String unit;
    private final String reason;

    private ValueType(String unit, String reason) {
        this.unit = unit;
        this.reason = reason;
    }

    /** An integer in [min, max]. */
    public static Int integer(long min, long max) {
        return new Int(min, max, "", null);
    }

    /** A number in [min, max] (a lower bound above -infinity may be exclusive: {@link Real#above}). */
    public static Real real(double min, double max) {
        return new Real(min, max, false, "", null);
    }

    /** true or false. */
    public static ValueType<Boolean> bool() {
        return new Bool();
    }

    /** Any string. */
    public static ValueType<String> text() {
        return new Text();
    }

    /** One of {@code values}, matched case-insensitively and bound as written here. */
    public static ValueType<String> choice(List<String> values) {
        return new Choice(values, "value");
    }

    /** {@link #choice(List)}, whose refusal names what the values are ({@code unknown routing policy 'x'}). */
    public static ValueType<String> choice(List<String> values, String what) {
        return new Choice(values, what);
    }

    /** A mapping of names (tenants, SLO classes) to values of {@code values}, e.g. per-class scores. */
    public static <V> ValueType<Map<String, V>> mapping(ValueType<V> values) {
        return new Mapping<>(values);
    }

    /** A list of values of {@code elements} (per-position acceptance rates), each checked at {@code path[i]}. */
    public static <V> ValueType<List<V>> list(ValueType<V> elements) {
        return new ListOf<>(elements);
    }

    /** A duration in [minUs, maxUs] microseconds, written with a unit. */
    public static Duration duration(long minUs, long maxUs) {
        return new Duration(minUs, maxUs, false, null);
    }

    /** A bandwidth in [minGbPerS, maxGbPerS] GB/s. */
    public static Bandwidth bandwidth(double minGbPerS, double maxGbPerS) {
        return new Bandwidth(minGbPerS, maxGbPerS, null);
    }

    /** The unit values are in ("tokens", "GB/s", "us"), or empty. */
    public String unit() {
        return unit;
    }

    /** Why the range is what it is, or null. */
    public String reason() {
        return reason;
    }

    /** The value of {@code v}, or a {@link ConfigException} at {@code path} saying what is wrong. */
    abstract T parse(JsonNode v, String path);

    /** Throws a {@link ConfigException} at {@code path} when {@code value} is outside the range. */
    abstract void check(T value, String path);

    /** {@code value} as a config would write it. */
    public abstract String render(T value);

    /** The kind and range in words, for the reference ("integer in [1, 1048576]"). */
    public abstract String describe();

    String outOfRange(String bounds, String got) {
        return "must be " + bounds + (unit.isEmpty() ? "" : " " + unit) + ", got " + got
                + (reason == null ? "" : " (" + reason + ")");
    }

    /** {@code 4}, {@code 0.25}: a number as a message shows it (no trailing zeros, no exponent). */
    public static String plain(double d) {
        if (!Double.isFinite(d)) {
            return Double.toString(d); // YAML's .inf or .nan, refused by every range
        }
        return BigDecimal.valueOf(d).stripTrailingZeros().toPlainString();
    }

    static String render(JsonNode v) {
        return v.isTextual() ? "'" + v.asText() + "'" : v.toString().toLowerCase(Locale.ROOT);
    }

    /** An integer (a {@code long}); {@code 2.0} counts as 2. */
    public static final class Int extends ValueType<Long> {
        private final long min;
        private final long max;

        private Int(long min, long max, String unit, String reason) {
            super(unit, reason);
            this.min = min;
            this.max = max;
        }

        /** The same range in {@code unit}, refused with {@code reason}. */
        public Int in(String unit, String reason) {
            return new Int(min, max, unit, reason);
        }

        public long min() {
            return min;
        }

        public long max() {
            return max;
        }

        @Override
        Long parse(JsonNode v, String path) {
            if (!v.isIntegralNumber() && !(v.isNumber() && v.asDouble() == Math.rint(v.asDouble()))) {
                throw new ConfigException(path, "must be an integer, got " + render(v));
            }
            boolean fits = v.isIntegralNumber() ? v.canConvertToLong() : v.asDouble() >= -0x1p63 && v.asDouble() < 0x1p63;
            if (!fits) {
                throw new ConfigException(path, "must be an integer " + outOfRange(bounds(), v.asText()).substring("must be ".length()));
            }
            long x = v.asLong();
            check(x, path);
            return x;
        }

        @Override
        void check(Long x, String path) {
            if (x < min || x > max) {
                throw new ConfigException(path, outOfRange(x < min && unbounded(max) ? ">= " + min : bounds(), Long.toString(x)));
            }
        }

        private String bounds() {
            return "in [" + min + ", " + max + "]";
        }

        private static boolean unbounded(long max) {
            return max == Long.MAX_VALUE || max == Integer.MAX_VALUE || max == Durations.MAX_US;
        }

        @Override
        public String render(Long value) {
            return Long.toString(value);
        }

        @Override
        public String describe() {
            String range = unbounded(max) ? (min == Long.MIN_VALUE ? "any" : ">= " + min) : "in [" + min + ", " + max + "]";
            return "integer " + range + (unit().isEmpty() ? "" : " " + unit());
        }
    }

    /** A number. */
    public static final class Real extends ValueType<Double> {
        private final double min;
        private final double max;
        private final boolean minExclusive;

        private Real(double min, double max, boolean minExclusive, String unit, String reason) {
            super(unit, reason);
            this.min = min;
            this.max = max;
            this.minExclusive = minExclusive;
        }

        /** The same range in {@code unit}, refused with {@code reason}. */
        public Real in(String unit, String reason) {
            return new Real(min, max, minExclusive, unit, reason);
        }

        /** The lowest value accepted (excluded when {@link #above} made it so). */
        public double min() {
            return min;
        }

        /** The highest value accepted. */
        public double max() {
            return max;
        }

        /** Whether {@link #min} itself is refused. */
        public boolean minExcluded() {
            return minExclusive;
        }

        /** The lower bound excluded ({@code > 0}). */
        public Real above() {
            return new Real(min, max, true, unit(), reason());
        }

        @Override
        Double parse(JsonNode v, String path) {
            if (!v.isNumber()) {
                throw new ConfigException(path, "must be a number, got " + render(v));
            }
            double x = v.asDouble() + 0.0; // -0.0 reads as 0 (a weight of -0.0 would print as such in traces)
            check(x, path);
            return x;
        }

        @Override
        void check(Double x, String path) {
            boolean low = minExclusive ? !(x > min) : !(x >= min);
            if (low || !(x <= max)) {
                throw new ConfigException(path, outOfRange(bounds(), plain(x)));
            }
        }

        private String bounds() {
            String lo = minExclusive ? "> " : ">= ";
            if (max == Double.MAX_VALUE) {
                return lo + plain(min);
            }
            if (min == -Double.MAX_VALUE) {
                return "<= " + plain(max);
            }
            return minExclusive ? "in (" + plain(min) + ", " + plain(max) + "]" : "in [" + plain(min) + ", " + plain(max) + "]";
        }

        @Override
        public String render(Double value) {
            return plain(value);
        }

        @Override
        public String describe() {
            return "number" + (min == -Double.MAX_VALUE && max == Double.MAX_VALUE ? "" : " " + bounds())
                    + (unit().isEmpty() ? "" : " " + unit());
        }
    }

    /** true or false. */
    static final class Bool extends ValueType<Boolean> {
        private Bool() {
            super("", null);
        }

        @Override
        Boolean parse(JsonNode v, String path) {
            if (!v.isBoolean()) {
                throw new ConfigException(path, "must be true or false, got " + render(v));
            }
            return v.asBoolean();
        }

        @Override
        void check(Boolean value, String path) {
        }

        @Override
        public String render(Boolean value) {
            return value.toString();
        }

        @Override
        public String describe() {
            return "true or false";
        }
    }

    /** A string. */
    static final class Text extends ValueType<String> {
        private Text() {
            super("", null);
        }

        @Override
        String parse(JsonNode v, String path) {
            if (!v.isValueNode()) {
                throw new ConfigException(path, "must be a string, got " + render(v));
            }
            return v.asText();
        }

        @Override
        void check(String value, String path) {
        }

        @Override
        public String render(String value) {
            return value;
        }

        @Override
        public String describe() {
            return "text";
        }
    }

    /** One of a closed set. */
    static final class Choice extends ValueType<String> {
        private final List<String> values;
        private final String what;

        private Choice(List<String> values, String what) {
            super("", null);
            this.values = List.copyOf(values);
            this.what = what;
        }

        @Override
        String parse(JsonNode v, String path) {
            if (!v.isValueNode()) {
                throw new ConfigException(path, "must be a string, got " + render(v));
            }
            for (String c : values) {
                if (c.equalsIgnoreCase(v.asText())) {
                    return c;
                }
            }
            throw new ConfigException(path, "unknown " + what + " '" + v.asText() + "'; valid: " + String.join(", ", values));
        }

        @Override
        void check(String value, String path) {
            parse(com.fasterxml.jackson.databind.node.TextNode.valueOf(value), path);
        }

        @Override
        public String render(String value) {
            return value;
        }

        @Override
        public String describe() {
            return "one of " + String.join(", ", values);
        }
    }

    /** A duration, bound to whole microseconds. */
    public static final class Duration extends ValueType<Long> {
        private final long minUs;
        private final long maxUs;
        private final boolean bareMicros;

        private Duration(long minUs, long maxUs, boolean bareMicros, String reason) {
            super("", reason);
            this.minUs = minUs;
            this.maxUs = maxUs;
            this.bareMicros = bareMicros;
        }

        /** The same range, refused with {@code reason}. */
        public Duration because(String reason) {
            return new Duration(minUs, maxUs, bareMicros, reason);
        }

        /** The shortest duration accepted, microseconds. */
        public long minUs() {
            return minUs;
        }

        /** The longest duration accepted, microseconds. */
        public long maxUs() {
            return maxUs;
        }

        /** A bare number is also accepted, as microseconds (a key whose name ends in {@code _us}). */
        public Duration bareMicros() {
            return new Duration(minUs, maxUs, true, reason());
        }

        @Override
        Long parse(JsonNode v, String path) {
            long us;
            if (v.isNumber()) {
                if (!bareMicros) {
                    throw new ConfigException(path, "must be a duration with a unit (e.g. 30s, 500ms, 250us, 2m, 1h), got "
                            + render(v));
                }
                if (!v.isIntegralNumber() && !(v.isNumber() && v.asDouble() == Math.rint(v.asDouble()))) {
                    throw new ConfigException(path, "must be a whole number of microseconds or a duration with a unit (e.g."
                            + " 1.5ms), got "
                            + render(v));
                }
                boolean fits = v.isIntegralNumber() ? v.canConvertToLong() : Math.abs(v.asDouble()) < 0x1p63;
                if (!fits) { // beyond a long: refused with the range, in durations like any other value out of it
                    throw new ConfigException(path, outOfRange("in [" + Durations.render(minUs) + ", "
                            + Durations.render(maxUs) + "]", v.asText() + "us"));
                }
                us = v.asLong();
            } else if (v.isTextual()) {
                us = Durations.parseUs(v.asText(), path);
            } else {
                throw new ConfigException(path, "must be a duration (e.g. 30s, 500ms, 250us), got " + render(v));
            }
            check(us, path);
            return us;
        }

        @Override
        void check(Long us, String path) {
            if (us < minUs || us > maxUs) {
                throw new ConfigException(path, outOfRange("in [" + Durations.render(minUs) + ", " + Durations.render(maxUs) + "]",
                        Durations.render(us)));
            }
        }

        @Override
        public String render(Long us) {
            return Durations.render(us);
        }

        @Override
        public String describe() {
            return "duration in [" + Durations.render(minUs) + ", " + Durations.render(maxUs) + "]"
                    + (bareMicros ? " (a bare number is microseconds)" : "");
        }
    }

    /** A bandwidth, bound to GB/s (10^9 bytes per second). */
    public static final class Bandwidth extends ValueType<Double> {
        private final double minGbPerS;
        private final double maxGbPerS;

        private Bandwidth(double minGbPerS, double maxGbPerS, String reason) {
            super("GB/s", reason);
            this.minGbPerS = minGbPerS;
            this.maxGbPerS = maxGbPerS;
        }

        /** The same range, refused with {@code reason}. */
        public Bandwidth because(String reason) {
            return new Bandwidth(minGbPerS, maxGbPerS, reason);
        }

        @Override
        Double parse(JsonNode v, String path) {
            double gb;
            if (v.isNumber()) {
                gb = v.asDouble();
            } else if (v.isTextual()) {
                gb = Bandwidths.parseGbPerS(v.asText(), path);
            } else {
                throw new ConfigException(path, "must be a bandwidth (e.g. 64GB/s, 400Gb/s, or a number of GB/s), got "
                        + render(v));
            }
            check(gb, path);
            return gb;
        }

        @Override
        void check(Double gb, String path) {
            if (!(gb >= minGbPerS && gb <= maxGbPerS)) {
                throw new ConfigException(path, outOfRange("in [" + plain(minGbPerS) + ", " + plain(maxGbPerS) + "]",
                        plain(gb)));
            }
        }

        @Override
        public String render(Double gb) {
            return plain(gb) + "GB/s";
        }

        @Override
        public String describe() {
            return "bandwidth in [" + plain(minGbPerS) + ", " + plain(maxGbPerS) + "] GB/s (e.g. 64GB/s, 400Gb/s; a bare number"
                    + " is GB/s)";
        }
    }

    /** A mapping of names to values of one type; bound sorted by name. */
    static final class Mapping<V> extends ValueType<Map<String, V>> {
        private final ValueType<V> values;

        private Mapping(ValueType<V> values) {
            super(values.unit(), values.reason());
            this.values = values;
        }

        @Override
        Map<String, V> parse(JsonNode v, String path) {
            if (!v.isObject()) {
                throw new ConfigException(path, "must be a mapping of name: " + values.describe() + ", got " + render(v));
            }
            Map<String, V> out = new TreeMap<>();
            List<ConfigException.Problem> problems = new ArrayList<>();
            v.fields().forEachRemaining(e -> {
                try {
                    out.put(e.getKey(), values.parse(e.getValue(), path + "." + e.getKey()));
                } catch (ConfigException bad) {
                    problems.addAll(bad.problems()); // every entry's, not the first's only
                }
            });
            if (!problems.isEmpty()) {
                throw new ConfigException(problems);
            }
            return out;
        }

        @Override
        void check(Map<String, V> value, String path) {
            value.forEach((name, x) -> values.check(x, path + "." + name));
        }

        @Override
        public String render(Map<String, V> value) {
            StringBuilder out = new StringBuilder("{");
            new TreeMap<>(value).forEach((name, x) -> out.append(out.length() > 1 ? ", " : "").append(name).append(": ")
                    .append(values.render(x)));
            return out.append('}').toString();
        }

        @Override
        public String describe() {
            return "mapping of name: " + values.describe();
        }
    }

    /** A list of values of one type, in the order written; each element is parsed and checked at {@code path[i]}. */
    static final class ListOf<V> extends ValueType<List<V>> {
        private final ValueType<V> elements;

        private ListOf(ValueType<V> elements) {
            super(elements.unit(), elements.reason());
            this.elements = elements;
        }

        @Override
        List<V> parse(JsonNode v, String path) {
            if (!v.isArray()) {
                throw new ConfigException(path, "must be a list of " + elements.describe() + ", got " + render(v));
            }
            ArrayList<V> out = new ArrayList<>(v.size());
            List<ConfigException.Problem> problems = new ArrayList<>();
            for (int i = 0; i < v.size(); i++) {
                try {
                    out.add(elements.parse(v.get(i), path + "[" + i + "]"));
                } catch (ConfigException bad) {
                    problems.addAll(bad.problems()); // every element's, not the first's only
                }
            }
            if (!problems.isEmpty()) {
                throw new ConfigException(problems);
            }
            return List.copyOf(out);
        }

        @Override
        void check(List<V> value, String path) {
            for (int i = 0; i < value.size(); i++) {
                elements.check(value.get(i), path + "[" + i + "]");
            }
        }

        @Override
        public String render(List<V> value) {
            StringBuilder out = new StringBuilder("[");
            for (V x : value) {
                out.append(out.length() > 1 ? ", " : "").append(elements.render(x));
            }
            return out.append(']').toString();
        }

        @Override
        public String describe() {
            return "list of " + elements.describe();
        }
    }
}
