package io.servesim.latency;

import com.fasterxml.jackson.databind.JsonNode;
import io.servesim.config.ConfigException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The profiled layers one engine step runs for a model architecture, from the bundled
 * {@code profiles/architectures.yaml} (after casys-kaist/LLMServingSim
 * {@code profiler/models/<architecture>.yaml}, {@code sequence:}).
 *
 * @param name     architecture name ({@code meta.yaml architecture}, e.g. {@code llama})
 * @param prologue layers run once per step before the decoder layers
 * @param layer    layers of one decoder layer (run num_hidden_layers times)
 * @param head     layers run once per step after the decoder layers
 */
public record ProfileArchitecture(String name, List<String> prologue, List<String> layer, List<String> head) {
    public ProfileArchitecture {
        prologue = List.copyOf(prologue);
        layer = List.copyOf(layer);
        head = List.copyOf(head);
    }

    /**
     * The bundled layer sequence of {@code architecture}.
     *
     * @param where where the name comes from, for the error
     * @throws ConfigException listing the known architectures when unknown
     */
    public static ProfileArchitecture of(String architecture, String where) {
        JsonNode all = Resources.yaml("profiles/architectures.yaml").path("architectures");
        JsonNode entry = all.get(architecture.toLowerCase(Locale.ROOT));
        if (entry == null) {
            List<String> known = new ArrayList<>();
            all.fieldNames().forEachRemaining(known::add);
            throw new ConfigException(where, "no layer sequence for architecture '" + architecture + "'; known: "
                    + String.join(", ", known));
        }
        return new ProfileArchitecture(architecture, names(entry, "prologue"), names(entry, "layer"), names(entry, "head"));
    }

    private static List<String> names(JsonNode entry, String field) {
        List<String> out = new ArrayList<>();
        entry.path(field).forEach(n -> out.add(n.asText()));
        return out;
    }
}
