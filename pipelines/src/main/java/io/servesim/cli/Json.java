package io.servesim.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.util.LinkedHashMap;
import java.util.Map;

/** Pretty JSON with stable key order; NaN (an empty sample's statistics) becomes null. */
final class Json {
    private static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private Json() {
    }

    static String render(Map<String, Object> map) {
        try {
            return MAPPER.writeValueAsString(clean(map));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> clean(Map<String, Object> in) {
        Map<String, Object> out = new LinkedHashMap<>();
        in.forEach((k, v) -> {
            if (v instanceof Double d && (d.isNaN() || d.isInfinite())) {
                out.put(k, null);
            } else if (v instanceof Map<?, ?> m) {
                out.put(k, clean((Map<String, Object>) m));
            } else if (v instanceof java.util.List<?> l) {
                out.put(k, l.stream().map(x -> x instanceof Map<?, ?> m ? clean((Map<String, Object>) m) : x).toList());
            } else {
                out.put(k, v);
            }
        });
        return out;
    }
}
