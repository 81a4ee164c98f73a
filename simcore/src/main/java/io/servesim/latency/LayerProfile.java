package io.servesim.latency;

import com.fasterxml.jackson.databind.JsonNode;
import io.servesim.config.ConfigException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A measured per-layer step-time profile in the format of casys-kaist/LLMServingSim's profiler
 * ({@code profiler/perf/<hardware>/<model>/<variant>/}): {@code meta.yaml} plus, per tensor-parallel
 * degree, a folder {@code tp<N>/} with
 * <ul>
 *   <li>{@code dense.csv} ({@code layer,tokens,time_us}): layers whose cost depends on the tokens of
 *       the step (projections, MLP, norms, rotary embedding, input embedding);</li>
 *   <li>{@code per_sequence.csv} ({@code layer,sequences,time_us}): layers run once per sequence
 *       (LM head over each sequence's last token, sampler);</li>
 *   <li>{@code attention.csv} ({@code prefill_chunk,kv_prefill,n_decode,kv_decode,time_us}), see
 *       {@link AttentionGrid};</li>
 *   <li>optionally {@code skew_fit.csv}, see {@link SkewCorrection};</li>
 *   <li>for a MoE model, {@code moe.csv} in {@code tp1/} ({@link MoeTable}): the profiler measures the MoE block
 *       once, at TP 1 (LLMServingSim's {@code _lookup_moe} reads it from there whatever the TP).</li>
 * </ul>
 * Times are of ONE decoder layer (the profiler runs the model with {@code num_hidden_layers: 1}); a
 * step runs each decoder layer {@code num_hidden_layers} times ({@link ProfiledModel}). A folder
 * without {@code tp<N>/} sub-folders holds a single copy of the tables beside {@code meta.yaml} (the
 * layout of sweeps/data/profiling/llmservingsim_rtxpro6000_llama31_8b_tp1) and is read as TP 1:
 * meta.yaml does not record which TP degree a flat copy holds.
 *
 * @param where         where its {@code meta.yaml} was read from
 * @param model         {@code meta.yaml model} (Hugging Face id)
 * @param hardware      {@code meta.yaml hardware}
 * @param architecture  {@code meta.yaml architecture} (selects the layer sequence, {@link ProfileArchitecture})
 * @param vllmVersion   {@code meta.yaml vllm_version}
 * @param tp            tensor-parallel degree of the tables
 * @param dense         per-layer curves over the step's tokens
 * @param perSequence   per-layer curves over the step's sequences
 * @param attention     attention time of one layer
 * @param skew          attention skew correction
 * @param moeOrNull     the MoE block's table, or null when the profile has none
 */
record LayerProfile(String where, String model, String hardware, String architecture, String vllmVersion,
                           int tp, Map<String, PiecewiseLinear> dense, Map<String, PiecewiseLinear> perSequence,
                           AttentionGrid attention, SkewCorrection skew, MoeTable moeOrNull) {

    /** Reads the tables of TP degree {@code tp} from {@code root}. */
    static LayerProfile read(ProfileFiles root, int tp) {
        JsonNode meta = root.yaml("meta.yaml");
        String metaWhere = root.where("meta.yaml");
        ProfileFiles tables = root.sub("tp" + tp);
        if (!tables.exists("attention.csv")) {
            if (root.exists("attention.csv") && tp == 1) {
                tables = root;
            } else {
                throw new ConfigException(tables.where("attention.csv"), "no profile tables for tensor parallelism " + tp
                        + " (a folder without tp<N>/ sub-folders is read as TP 1)");
            }
        }
        return new LayerProfile(metaWhere, text(meta, "model", metaWhere), text(meta, "hardware", metaWhere),
                text(meta, "architecture", metaWhere), meta.path("vllm_version").asText("unknown"), tp,
                curves(tables.csv("dense.csv"), "tokens"), curves(tables.csv("per_sequence.csv"), "sequences"),
                AttentionGrid.read(tables.csv("attention.csv")), SkewCorrection.read(meta, tp, tables, metaWhere),
                moe(root, tables));
    }

    private static MoeTable moe(ProfileFiles root, ProfileFiles tables) {
        ProfileFiles tp1 = root.sub("tp1");
        if (tp1.exists("moe.csv")) {
            return MoeTable.read(tp1.csv("moe.csv"));
        }
        return tables.exists("moe.csv") ? MoeTable.read(tables.csv("moe.csv")) : null;
    }

    /** Names of the profiled dense and per-sequence layers (for error messages). */
    List<String> layerNames() {
        List<String> names = new ArrayList<>(dense.keySet());
        names.addAll(perSequence.keySet());
        names.add("attention");
        names.sort(null);
        return names;
    }

    private static Map<String, PiecewiseLinear> curves(ProfileCsv csv, String keyColumn) {
        int cLayer = csv.column("layer");
        int cKey = csv.column(keyColumn);
        int cTime = csv.column("time_us");
        Map<String, TreeMap<Integer, Double>> byLayer = new HashMap<>();
        for (int r = 0; r < csv.size(); r++) {
            byLayer.computeIfAbsent(csv.text(r, cLayer), k -> new TreeMap<>())
                    .put(csv.integer(r, cKey, 1), csv.number(r, cTime, 0)); // duplicates: last wins, as LLMServingSim
        }
        Map<String, PiecewiseLinear> out = new HashMap<>();
        byLayer.forEach((layer, points) -> out.put(layer, new PiecewiseLinear(
                points.keySet().stream().mapToDouble(Integer::doubleValue).toArray(),
                points.values().stream().mapToDouble(Double::doubleValue).toArray())));
        return Map.copyOf(out);
    }

    private static String text(JsonNode meta, String field, String where) {
        JsonNode v = meta.get(field);
        if (v == null || !v.isValueNode() || v.asText().isBlank()) {
            throw new ConfigException(where + "." + field, "required");
        }
        return v.asText();
    }
}
