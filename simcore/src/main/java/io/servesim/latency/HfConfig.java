package io.servesim.latency;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import io.servesim.config.ConfigException;
import io.servesim.config.ReadFailure;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Parses a Hugging Face {@code config.json} into a {@link ModelArchitecture}, following the field
 * meanings of the {@code transformers} configuration classes:
 * <ul>
 *   <li>multimodal wrappers (Llama 4) keep the language model in {@code text_config}; fields missing
 *       there are looked up at the top level ({@code torch_dtype}, {@code quantization_config});</li>
 *   <li>{@code num_key_value_heads} defaults to {@code num_attention_heads}, {@code head_dim} to
 *       hidden / heads, {@code tie_word_embeddings} to false;</li>
 *   <li>experts: {@code num_local_experts} (Mixtral, Llama 4), {@code num_experts} (Qwen MoE) or
 *       {@code n_routed_experts} (DeepSeek, GLM); expert width {@code moe_intermediate_size}, else
 *       {@code intermediate_size}; dense-layer width {@code intermediate_size_mlp} (Llama 4), else
 *       {@code intermediate_size};</li>
 *   <li>which layers are MoE: DeepSeek's {@code first_k_dense_replace} and {@code moe_layer_freq},
 *       Qwen's {@code decoder_sparse_step} and {@code mlp_only_layers}, Llama 4's
 *       {@code interleave_moe_layer_step};</li>
 *   <li>shared experts: {@code n_shared_experts} x expert width (DeepSeek, GLM),
 *       {@code shared_expert_intermediate_size} (Qwen2-MoE), one expert-width shared expert (Llama 4);</li>
 *   <li>dtype from {@code torch_dtype} or {@code dtype} (bfloat16/float16 2 bytes, float32 4;
 *       bfloat16 assumed when absent); weight bytes from {@code quantization_config}: {@code fp8} 1,
 *       compressed-tensors {@code weights.num_bits} / 8, else {@code bits} / 8;</li>
 *   <li>a {@code vision_config} in the Llama 4 layout gives the vision encoder ({@link VisionEncoder}).</li>
 * </ul>
 * Problems are {@link ConfigException}s at the caller's config path, naming the missing field.
 */
final class HfConfig {
    private final JsonNode text;
    private final JsonNode top;
    private final String path;
    private final String source;

    private HfConfig(JsonNode root, String path, String source) {
        this.top = root;
        this.text = root.has("text_config") ? root.get("text_config") : root;
        this.path = path;
        this.source = source;
    }

    /** Reads a {@code config.json} file; {@code path} is the config path that named it. */
    static ModelArchitecture read(Path file, String path) {
        JsonNode root;
        try {
            root = Resources.jsonMapper().readTree(Files.readAllBytes(file));
        } catch (IOException e) {
            throw new ConfigException(path, "cannot read model config.json " + ReadFailure.describe(e, file));
        }
        String stem = file.getFileName().toString().replaceFirst("(\\.config)?\\.json$", "");
        return parse(root, stem, path, file.toString());
    }

    /**
     * Parses an already-read {@code config.json} tree.
     *
     * @param name   name the architecture is shown under
     * @param path   config path that named the model, for errors
     * @param source file or resource name, for errors
     */
    static ModelArchitecture parse(JsonNode root, String name, String path, String source) {
        return new HfConfig(root, path, source).architecture(name);
    }

    private ModelArchitecture architecture(String name) {
        int layers = required("num_hidden_layers");
        int hidden = required("hidden_size");
        int heads = required("num_attention_heads");
        int vocab = required("vocab_size");
        int kvHeads = optional("num_key_value_heads", heads);
        if (!has("head_dim") && hidden % heads != 0) {
            throw problem("hidden_size " + hidden + " is not a multiple of num_attention_heads " + heads + " and head_dim is absent");
        }
        int headDim = optional("head_dim", hidden / heads);
        if (kvHeads <= 0 || heads % kvHeads != 0) {
            throw problem("num_attention_heads " + heads + " is not a multiple of num_key_value_heads " + kvHeads);
        }
        int dtypeBytes = dtypeBytes();
        return new ModelArchitecture(name, field("model_type").asText(""), layers, hidden, vocab,
                field("tie_word_embeddings").asBoolean(false), contextLength(),
                dtypeBytes, dtypeBytes, weightBytesPerParam(dtypeBytes), attention(heads, kvHeads, headDim),
                feedForward(layers), vision(), optional("num_nextn_predict_layers", 0));
    }

    /**
     * The vision encoder of a {@code vision_config} in the Llama 4 layout ({@link VisionEncoder}: {@code hidden_size},
     * {@code num_hidden_layers}, {@code intermediate_size}, {@code image_size}, {@code patch_size}, optional
     * {@code pixel_shuffle_ratio}, {@code projector_input_dim}, {@code projector_output_dim}, {@code vision_output_dim}),
     * else null (no vision config, or one of another layout).
     */
    private VisionEncoder vision() {
        JsonNode v = top.path("vision_config");
        for (String f : List.of("hidden_size", "num_hidden_layers", "intermediate_size", "image_size", "patch_size")) {
            if (!v.path(f).canConvertToInt() || v.path(f).asInt() < 1) {
                return null;
            }
        }
        double ratio = v.path("pixel_shuffle_ratio").asDouble(1.0);
        if (!(ratio > 0 && ratio <= 1) || v.path("image_size").asInt() < v.path("patch_size").asInt()) {
            return null;
        }
        return new VisionEncoder(v.path("hidden_size").asInt(), v.path("num_hidden_layers").asInt(),
                v.path("intermediate_size").asInt(), v.path("image_size").asInt(), v.path("patch_size").asInt(), ratio,
                v.path("projector_input_dim").asInt(0), v.path("projector_output_dim").asInt(0),
                v.path("vision_output_dim").asInt(0));
    }

    /** The derived maximum length ({@link ContextLength}, after vLLM {@code _get_and_verify_max_len}). */
    private ContextLength contextLength() {
        int positions = optional("max_position_embeddings", 0);
        JsonNode given = field("max_position_embeddings");
        if (!given.isMissingNode() && !given.isNull() && positions <= 0) {
            // absent means no known limit; a value that is not a positive length is a mistake, not "unlimited"
            throw problem("max_position_embeddings must be a positive integer (the model's context length, in tokens), got "
                    + given);
        }
        JsonNode rope = field("rope_scaling");
        if (positions <= 0 || !rope.isObject() || field("model_type").asText("").contains("gemma3")) {
            return ContextLength.unscaled(positions);
        }
        // transformers' patch_rope_scaling: legacy configs name the type "type".
        String type = rope.path("rope_type").asText(rope.path("type").asText("default"));
        if (List.of("su", "longrope", "llama3").contains(type)) {
            return ContextLength.unscaled(positions);
        }
        JsonNode factor = rope.path("factor");
        if (!factor.isMissingNode() && !(factor.isNumber() && factor.asDouble() > 0)) {
            throw problem("rope_scaling.factor must be a number > 0, got " + factor);
        }
        int base = positions;
        if (type.equals("yarn")) {
            JsonNode original = rope.path("original_max_position_embeddings");
            if (!original.canConvertToInt() || !original.isIntegralNumber() || original.asInt() <= 0) {
                throw problem("rope_scaling yarn needs a positive integer original_max_position_embeddings");
            }
            base = original.asInt();
        }
        return new ContextLength(positions, type, base, factor.asDouble(1.0));
    }

    private ModelArchitecture.Attention attention(int heads, int kvHeads, int headDim) {
        int kvLoraRank = optional("kv_lora_rank", 0);
        if (kvLoraRank <= 0) {
            return new ModelArchitecture.Attention(heads, kvHeads, headDim, headDim, headDim, 0, 0, 0);
        }
        int rope = required("qk_rope_head_dim");
        int qkHeadDim = required("qk_nope_head_dim") + rope;
        return new ModelArchitecture.Attention(heads, kvHeads, headDim, qkHeadDim, required("v_head_dim"),
                optional("q_lora_rank", 0), kvLoraRank, rope);
    }

    private ModelArchitecture.FeedForward feedForward(int layers) {
        int experts = optional("num_local_experts", optional("num_experts", optional("n_routed_experts", 0)));
        if (experts <= 1) {
            return new ModelArchitecture.FeedForward(layers, required("intermediate_size"), 0, 0, 0, 0, 0);
        }
        int expertsPerToken = required("num_experts_per_tok");
        int expertWidth = has("moe_intermediate_size") ? required("moe_intermediate_size") : required("intermediate_size");
        int moeLayers = 0;
        Set<Integer> mlpOnly = new HashSet<>();
        for (JsonNode i : field("mlp_only_layers")) {
            mlpOnly.add(i.asInt());
        }
        int firstDense = optional("first_k_dense_replace", 0);
        int freq = Math.max(1, optional("moe_layer_freq", 1));
        int sparseStep = Math.max(1, optional("decoder_sparse_step", 1));
        int interleave = Math.max(1, optional("interleave_moe_layer_step", 1));
        for (int i = 0; i < layers; i++) {
            if (i >= firstDense && i % freq == 0 && (i + 1) % sparseStep == 0 && (i + 1) % interleave == 0
                    && !mlpOnly.contains(i)) {
                moeLayers++;
            }
        }
        int denseLayers = layers - moeLayers;
        int denseWidth = denseLayers == 0 ? 0
                : has("intermediate_size_mlp") ? required("intermediate_size_mlp") : required("intermediate_size");
        int shared;
        if (has("shared_expert_intermediate_size")) {
            shared = required("shared_expert_intermediate_size");
        } else if (has("n_shared_experts")) {
            shared = required("n_shared_experts") * expertWidth;
        } else {
            shared = field("model_type").asText("").startsWith("llama4") ? expertWidth : 0;
        }
        return new ModelArchitecture.FeedForward(denseLayers, denseWidth, moeLayers, experts, expertsPerToken,
                expertWidth, shared);
    }

    private int dtypeBytes() {
        JsonNode d = has("torch_dtype") ? field("torch_dtype") : field("dtype");
        String dtype = d.asText("bfloat16").toLowerCase(Locale.ROOT);
        switch (dtype) {
            case "bfloat16": case "float16": case "bf16": case "fp16": case "half":
                return 2;
            case "float32": case "fp32": case "float":
                return 4;
            default:
                throw problem("unsupported torch_dtype '" + dtype + "'; supported: bfloat16, float16, float32");
        }
    }

    private double weightBytesPerParam(int dtypeBytes) {
        JsonNode q = field("quantization_config");
        if (q.isMissingNode() || q.isNull()) {
            return dtypeBytes;
        }
        String method = q.path("quant_method").asText("");
        if (method.equals("fp8")) {
            return 1.0;
        }
        Iterator<JsonNode> groups = q.path("config_groups").elements();
        if (groups.hasNext()) {
            int bits = groups.next().path("weights").path("num_bits").asInt(0);
            if (bits > 0) {
                return bits / 8.0;
            }
        }
        if (q.path("bits").asInt(0) > 0) {
            return q.path("bits").asInt() / 8.0;
        }
        throw problem("unsupported quantization_config (quant_method '" + method
                + "'); supported: fp8, compressed-tensors config_groups with weights.num_bits, or a 'bits' field");
    }

    private JsonNode field(String name) {
        JsonNode v = text.get(name);
        if (v == null || v.isNull()) {
            v = top.get(name);
        }
        return v == null ? MissingNode.getInstance() : v;
    }

    private boolean has(String name) {
        return !field(name).isMissingNode() && !field(name).isNull();
    }

    private int required(String name) {
        JsonNode v = field(name);
        if (!v.canConvertToInt() || v.asInt() <= 0) {
            throw problem("needs a positive integer '" + name + "'");
        }
        return v.asInt();
    }

    private int optional(String name, int dflt) {
        JsonNode v = field(name);
        return v.canConvertToInt() && v.isIntegralNumber() ? v.asInt() : dflt;
    }

    private ConfigException problem(String message) {
        return new ConfigException(path, "model config.json " + source + ": " + message);
    }
}
