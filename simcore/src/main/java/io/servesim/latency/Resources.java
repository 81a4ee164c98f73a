package io.servesim.latency;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.servesim.config.StrictJson;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Locale;

/**
 * Reads the catalogs shipped under {@code io/servesim/latency/} on the classpath. A missing or
 * malformed bundled resource is a build defect, not a user error, so it fails with
 * {@link IllegalStateException}.
 */
final class Resources {
    static final String BASE = "io/servesim/latency/";
    private static final ObjectMapper YAML = StrictJson.yaml();
    private static final ObjectMapper JSON = StrictJson.json();

    private Resources() {
    }

    /** The YAML tree of resource {@code BASE + name}. */
    static JsonNode yaml(String name) {
        return read(YAML, name);
    }

    /** The JSON tree of resource {@code BASE + name}. */
    static JsonNode json(String name) {
        return read(JSON, name);
    }

    static ObjectMapper jsonMapper() {
        return JSON;
    }

    private static JsonNode read(ObjectMapper mapper, String name) {
        String resource = BASE + name;
        try (InputStream in = Resources.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("missing bundled resource " + resource);
            }
            return mapper.readTree(in);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read bundled resource " + resource, e);
        }
    }

    /** A required text field of a bundled catalog entry. */
    static String text(JsonNode node, String field, String where) {
        JsonNode v = node.get(field);
        if (v == null || !v.isValueNode() || v.asText().isEmpty()) {
            throw new IllegalStateException(where + ": missing '" + field + "'");
        }
        return v.asText();
    }

    /** A required finite number field of a bundled catalog entry. */
    static double number(JsonNode node, String field, String where) {
        JsonNode v = node.get(field);
        if (v == null || !v.isNumber() || !Double.isFinite(v.doubleValue())) {
            throw new IllegalStateException(where + ": missing or non-numeric '" + field + "'");
        }
        return v.doubleValue();
    }

    /**
     * Normal form of a user-typed name for case-insensitive matching: lower case, surrounding
     * blanks removed, runs of spaces and underscores turned into one '-'.
     */
    static String key(String name) {
        return name.trim().toLowerCase(Locale.ROOT).replaceAll("[\\s_]+", "-");
    }
}
