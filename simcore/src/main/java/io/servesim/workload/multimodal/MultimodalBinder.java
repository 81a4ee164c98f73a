package io.servesim.workload.multimodal;

import io.servesim.config.ConfigNode;
import io.servesim.workload.dist.DistributionBinder;
import io.servesim.workload.dist.DistributionBinder.Kind;
import io.servesim.workload.dist.DistributionSpec;
import java.nio.file.Path;

/**
 * Binds a client's {@code multimodal} block ({@link MultimodalSpec}): {@code text_distribution} (tokens) and, per
 * modality, {@code <modality>_distribution} (tokens of one item) with {@code <modality>_count_distribution} (items per
 * message, integers >= 0), the two given together; at least one of them. BLIS ignores a modality missing either of its
 * two; here that is an error at the missing one's path.
 */
public final class MultimodalBinder {
    private static final String[] MODALITIES = {"image", "audio", "video"};

    private MultimodalBinder() {
    }

    /** The multimodal block at {@code n} (present), or null when invalid (problems recorded). */
    public static MultimodalSpec bind(ConfigNode n, Path baseDir) {
        boolean ok = true;
        DistributionSpec text = null;
        ConfigNode t = n.child("text_distribution");
        if (t.present()) {
            text = DistributionBinder.bind(t, Kind.TOKENS, baseDir);
            ok = text != null;
        }
        MultimodalSpec.Modality[] m = new MultimodalSpec.Modality[MODALITIES.length];
        boolean any = t.present();
        for (int i = 0; i < MODALITIES.length; i++) {
            String name = MODALITIES[i];
            ConfigNode tokens = n.child(name + "_distribution");
            ConfigNode count = n.child(name + "_count_distribution");
            if (!tokens.present() && !count.present()) {
                continue;
            }
            any = true;
            if (!tokens.present() || !count.present()) {
                String missing = tokens.present() ? name + "_count_distribution" : name + "_distribution";
                n.problem(n.pathOf(missing), "required with " + (tokens.present() ? name + "_distribution" : name
                        + "_count_distribution") + ": " + (tokens.present() ? "items per message, e.g. {type: constant,"
                        + " params: {value: 1}}" : "tokens of one item, e.g. {type: constant, params: {value: 576}}"));
                ok = false;
                continue;
            }
            DistributionSpec tokenSpec = DistributionBinder.bind(tokens, Kind.TOKENS, baseDir);
            DistributionSpec countSpec = DistributionBinder.bind(count, Kind.ITEMS, baseDir);
            if (tokenSpec != null && tokenSpec.max() >= Integer.MAX_VALUE) {
                // vLLM sizes its encoder budget and cache by the largest item (compute_mm_encoder_budget)
                tokens.problem(tokens.pathOf("params") + ".max", "required for a " + tokenSpec.type() + " distribution:"
                        + " an item's tokens need an upper bound, the largest item the model takes, which sizes the"
                        + " engine's encoder budget and cache as vLLM sizes them (compute_mm_encoder_budget)");
                ok = false;
            }
            if (tokenSpec == null || countSpec == null) {
                ok = false;
            } else {
                m[i] = new MultimodalSpec.Modality(tokenSpec, countSpec);
            }
        }
        if (!any) {
            n.problem(n.path(), "give text_distribution or a modality (image_distribution with image_count_distribution,"
                    + " audio_..., video_...)");
            ok = false;
        }
        n.finish();
        return ok ? new MultimodalSpec(text, m[0], m[1], m[2]) : null;
    }
}
