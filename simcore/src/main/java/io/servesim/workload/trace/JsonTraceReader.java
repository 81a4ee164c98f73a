package io.servesim.workload.trace;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.servesim.config.StrictJson;
import java.nio.file.Path;

/**
 * Base of JSON-lines trace readers: one JSON object per line, fields read by name with typed
 * checks. Fields a format does not use are ignored (traces often carry extra columns).
 */
abstract class JsonTraceReader extends TraceReader {
    private static final ObjectMapper JSON = StrictJson.json();

    JsonTraceReader(Path path, Options options) {
        super(path, options, null);
    }

    @Override
    protected final TraceRow parse(String line, long lineNo) throws BadLine {
        JsonNode n;
        try {
            n = JSON.readTree(line);
        } catch (JsonProcessingException e) {
            throw new BadLine("not valid JSON: " + e.getOriginalMessage());
        }
        if (n == null || !n.isObject()) {
            throw new BadLine("expected a JSON object");
        }
        return parse(n, lineNo);
    }

    /** Parses one JSON object. */
    abstract TraceRow parse(JsonNode n, long lineNo) throws BadLine;

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
