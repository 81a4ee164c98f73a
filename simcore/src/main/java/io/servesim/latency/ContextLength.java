package io.servesim.latency;

import java.util.Locale;

/**
 * The longest sequence a model supports, derived from its Hugging Face config the way vLLM's
 * {@code _get_and_verify_max_len} does ({@code vllm/config.py}): {@code max_position_embeddings},
 * scaled when the config has {@code rope_scaling}: for every rope type but {@code su},
 * {@code longrope} and {@code llama3} (whose {@code max_position_embeddings} already is the scaled
 * length), and not for Gemma 3, the length is multiplied by {@code factor} (default 1); a
 * {@code yarn} length starts from {@code original_max_position_embeddings} instead. vLLM refuses a
 * {@code max_model_len} above it and uses it when none is given.
 *
 * @param maxPositionEmbeddings {@code max_position_embeddings}; 0 when the config gives none (length unknown)
 * @param ropeType              the rope type whose factor scales the length, or null when nothing scales it
 * @param basePositions         the length the factor multiplies ({@code original_max_position_embeddings} for
 *                              yarn, else {@code max_position_embeddings})
 * @param factor                {@code rope_scaling.factor}
 */
public record ContextLength(int maxPositionEmbeddings, String ropeType, int basePositions, double factor) {
    /** An unscaled length. */
    public static ContextLength unscaled(int maxPositionEmbeddings) {
        return new ContextLength(maxPositionEmbeddings, null, maxPositionEmbeddings, 1);
    }

    /** Whether the config gives a length at all. */
    public boolean known() {
        return maxPositionEmbeddings > 0;
    }

    /** The derived maximum length in tokens (at most {@link Integer#MAX_VALUE}, the largest max_model_len). */
    public int tokens() {
        return ropeType == null ? maxPositionEmbeddings : (int) Math.min(Integer.MAX_VALUE, (long) (basePositions * factor));
    }

    /** How the length was derived, e.g. {@code rope_scaling yarn: original_max_position_embeddings 4096 x factor 40}. */
    public String derivation() {
        if (ropeType == null) {
            return "max_position_embeddings";
        }
        String base = "yarn".equals(ropeType) ? "original_max_position_embeddings" : "max_position_embeddings";
        String f = factor == Math.rint(factor) ? Long.toString((long) factor) : String.format(Locale.ROOT, "%s", factor);
        return "rope_scaling " + ropeType + ": " + base + " " + basePositions + " x factor " + f;
    }
}
