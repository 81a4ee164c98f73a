package io.servesim.workload.trace;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.servesim.config.ReadFailure;
import io.servesim.config.StrictJson;
import java.io.IOException;
import java.nio.file.Path;

/**
 * Base of JSON-lines trace readers: one JSON object per line, fields read by name with typed
 * checks. Fields a format does not use are ignored (traces often carry extra columns).
 *
 * <p>A format may read its rows straight off the parser's tokens ({@link #parsePlain}) and leave to
 * the tree path ({@link #parse(JsonNode, long)}) only the lines that are not plain: that path then
 * names what is wrong, so a bad line is reported the same either way. Building a tree per line cost
 * more than the replay of the row itself on long prompts (a Mooncake row is ~26 hash ids).
 */
abstract class JsonTraceReader extends TraceReader {
    private static final ObjectMapper JSON = StrictJson.json();
    private static final int MAX_PLAIN_CHARS = JSON.getFactory().streamReadConstraints().getMaxStringLength();

    JsonTraceReader(Path path, Options options) {
        super(path, options, null);
    }

    @Override
    protected final TraceRow parse(String line, long lineNo) throws BadLine {
        TraceRow plain = null;
        // A line longer than Jackson's longest string may hold one in a field the plain path skips
        // unread: only the tree path enforces that limit (and reports it).
        if (line.length() <= MAX_PLAIN_CHARS) {
            try (JsonParser p = JSON.createParser(line)) {
                plain = p.nextToken() == JsonToken.START_OBJECT ? parsePlain(p, lineNo) : null;
            } catch (IOException e) {
                // not valid JSON (or a duplicate key): the tree path below says so
            }
        }
        if (plain != null) {
            return plain;
        }
        JsonNode n;
        try {
            n = JSON.readTree(line);
        } catch (JsonProcessingException e) {
            throw new BadLine("not valid JSON: " + ReadFailure.parserMessage(e));
        }
        if (n == null || !n.isObject()) {
            throw new BadLine("expected a JSON object");
        }
        return parse(n, lineNo);
    }

    /** Parses one JSON object. */
    abstract TraceRow parse(JsonNode n, long lineNo) throws BadLine;

    /**
     * The row of a plain line, read from {@code p} (just past the object's start), or null when any
     * field is absent, of another type or out of range: the line then goes through
     * {@link #parse(JsonNode, long)}, which must give every line this accepts the same row. The base
     * class has no plain path.
     */
    TraceRow parsePlain(JsonParser p, long lineNo) throws IOException {
        return null;
    }

    /** The current token as a finite number >= 0 (an int, a long or a double), else -1. */
    static double plainNumber(JsonParser p, JsonToken t) throws IOException {
        if (t == JsonToken.VALUE_NUMBER_FLOAT || t == JsonToken.VALUE_NUMBER_INT && isPlainInt(p)) {
            double x = p.getDoubleValue();
            return x >= 0 && x != Double.POSITIVE_INFINITY ? x : -1;
        }
        return -1;
    }

    /** The current token as an int or long value in [{@code min}, {@code max}], else -1 ({@code min} >= 0). */
    static long plainInteger(JsonParser p, JsonToken t, long min, long max) throws IOException {
        if (t == JsonToken.VALUE_NUMBER_INT && isPlainInt(p)) {
            long x = p.getLongValue();
            return x >= min && x <= max ? x : -1;
        }
        return -1;
    }

    /** Whether the current integer token fits a long (a larger one is left to the tree path). */
    static boolean isPlainInt(JsonParser p) throws IOException {
        JsonParser.NumberType type = p.getNumberType();
        return type == JsonParser.NumberType.INT || type == JsonParser.NumberType.LONG;
    }

    /** A required integer field >= {@code min}. */
    static long integer(JsonNode n, String field, long min) throws BadLine {
        JsonNode v = n.get(field);
        if (v == null || v.isNull()) {
            throw new BadLine("missing field " + field);
        }
        if (!v.isIntegralNumber() && !(v.isNumber() && v.asDouble() == Math.rint(v.asDouble()))) {
            throw new BadLine(field + " must be an integer, got " + v);
        }
        if (v.isIntegralNumber() ? !v.canConvertToLong() : Math.abs(v.asDouble()) >= 0x1p63) {
            throw new BadLine(field + " " + v + " is too large"); // asLong would wrap
        }
        long x = v.asLong();
        if (x < min) {
            throw new BadLine(field + " must be >= " + min + ", got " + x);
        }
        return x;
    }

    /** A required number >= 0, or {@code dflt} when absent and not required. */
    static double number(JsonNode n, String field, boolean required, double dflt) throws BadLine {
        JsonNode v = n.get(field);
        if (v == null || v.isNull()) {
            if (required) {
                throw new BadLine("missing field " + field);
            }
            return dflt;
        }
        if (!v.isNumber() || !(v.asDouble() >= 0) || Double.isInfinite(v.asDouble())) {
            throw new BadLine(field + " must be a number >= 0, got " + v);
        }
        return v.asDouble();
    }

    /** An optional array field, or null; an error if present but not an array. */
    static JsonNode array(JsonNode n, String field) throws BadLine {
        JsonNode v = n.get(field);
        if (v == null || v.isNull()) {
            return null;
        }
        if (!v.isArray()) {
            throw new BadLine(field + " must be an array");
        }
        return v;
    }
}
