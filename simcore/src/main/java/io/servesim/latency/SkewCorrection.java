package io.servesim.latency;

import com.fasterxml.jackson.databind.JsonNode;
import io.servesim.config.ConfigException;
import java.util.HashMap;
import java.util.Map;

/**
 * The attention skew correction of an LLMServingSim profile ({@code meta.yaml skew_fit} and
 * {@code tp<N>/skew_fit.csv}), applied as casys-kaist/LLMServingSim
 * {@code serving/core/trace_generator.py} does ({@code _lookup_attention_with_skew},
 * {@code _skew_alpha}).
 *
 * <p>The attention table is measured on batches whose decode requests all have the same KV length;
 * a real batch is looked up at its mean length (same total KV read), but FlashAttention's varlen
 * kernel pays tile padding and SM imbalance on a skewed batch, so it is slower. The profiler fits
 * {@code t = t_mean + alpha x (t_max - t_mean)}, with {@code t_max} the table at the batch's longest
 * decode, and alpha per bucket of (prefill_chunk, decode count, skew rate
 * {@code (mean - min) / (max - min)}, longest decode, kv_prefill). A bucket the table lacks uses the
 * TP's pooled {@code alpha_default}.
 *
 * <p>Difference from LLMServingSim: a negative fitted alpha (buckets of 2-8 samples; physically a
 * skewed batch is never faster than its uniform anchor) is read as 0.
 */
final class SkewCorrection {
    /** No correction (a profile without {@code skew_fit}). */
    static final SkewCorrection NONE = new SkewCorrection(null, null, null, null, Map.of(), 0);

    private final Axis decodes;
    private final Axis skewRate;
    private final Axis longestDecode;
    private final Axis kvPrefill;
    private final Map<String, Double> alphaByBucket;
    private final double alphaDefault;

    private SkewCorrection(Axis decodes, Axis skewRate, Axis longestDecode, Axis kvPrefill,
                           Map<String, Double> alphaByBucket, double alphaDefault) {
        this.decodes = decodes;
        this.skewRate = skewRate;
        this.longestDecode = longestDecode;
        this.kvPrefill = kvPrefill;
        this.alphaByBucket = alphaByBucket;
        this.alphaDefault = alphaDefault;
    }

    /**
     * Reads the correction for {@code tp} from {@code meta.yaml}'s {@code skew_fit} block and the
     * bucket table beside the attention table; {@link #NONE} when the profile has no skew fit.
     */
    static SkewCorrection read(JsonNode meta, int tp, ProfileFiles tables, String metaWhere) {
        JsonNode fit = meta.path("skew_fit");
        if (!fit.path("enabled").asBoolean(false)) {
            return NONE;
        }
        JsonNode perTp = fit.path("per_tp").path(String.valueOf(tp));
        if (perTp.isMissingNode()) {
            return NONE;
        }
        JsonNode axes = fit.path("bucket_axes");
        String where = metaWhere + " skew_fit.bucket_axes";
        double alphaDefault = Math.max(0, perTp.path("alpha_default").asDouble(0));
        Map<String, Double> alphas = new HashMap<>();
        if (tables.exists("skew_fit.csv")) {
            ProfileCsv csv = tables.csv("skew_fit.csv");
            int cPc = csv.column("pc");
            int cN = csv.column("n_label");
            int cSr = csv.column("skew_rate_label");
            int cKv = csv.column("kv_big_label");
            int cKp = csv.column("kp_label");
            int cAlpha = csv.column("alpha");
            int cLayer = csv.hasColumn("layer") ? csv.column("layer") : -1;
            for (int r = 0; r < csv.size(); r++) {
                if (cLayer >= 0 && !csv.text(r, cLayer).equals("attention")) {
                    continue;
                }
                String key = bucket(csv.integer(r, cPc, 0), csv.text(r, cN), csv.text(r, cSr), csv.text(r, cKv),
                        csv.text(r, cKp));
                alphas.put(key, Math.max(0, csv.number(r, cAlpha, Double.NEGATIVE_INFINITY)));
            }
        }
        return new SkewCorrection(Axis.read(axes, "n", where), Axis.read(axes, "skew_rate", where),
                Axis.read(axes, "kv_big", where), Axis.read(axes, "kp", where), Map.copyOf(alphas), alphaDefault);
    }

    /**
     * Alpha for a batch.
     *
     * @param prefillTokens   new prefill tokens in the step (matches a bucket only at a profiled grid value)
     * @param decodeSeqs      decode requests
     * @param skew            (mean - min) / (max - min) of the decode KV lengths, in [0, 1]
     * @param longestKvTokens longest decode KV length
     * @param kvPrefillTokens KV held by the prefill requests, summed
     */
    double alpha(long prefillTokens, int decodeSeqs, double skew, long longestKvTokens, long kvPrefillTokens) {
        if (this == NONE) {
            return 0;
        }
        String key = bucket(prefillTokens, decodes.label(decodeSeqs), skewRate.label(skew),
                longestDecode.label(longestKvTokens), kvPrefill.label(kvPrefillTokens));
        return alphaByBucket.getOrDefault(key, alphaDefault);
    }

    private static String bucket(long pc, String n, String skew, String longest, String kp) {
        return pc + "|" + n + "|" + skew + "|" + longest + "|" + kp;
    }

    /** Bucket edges and labels of one axis: label i covers (bins[i], bins[i + 1]]; above the last edge, the last label. */
    private record Axis(double[] bins, String[] labels) {
        static Axis read(JsonNode axes, String name, String where) {
            JsonNode bins = axes.path(name + "_bins");
            JsonNode labels = axes.path(name + "_labels");
            if (!bins.isArray() || !labels.isArray() || labels.size() == 0 || bins.size() != labels.size() + 1) {
                throw new ConfigException(where + "." + name + "_bins", "expected " + name + "_bins with one more edge than "
                        + name + "_labels");
            }
            double[] b = new double[bins.size()];
            for (int i = 0; i < b.length; i++) {
                b[i] = bins.get(i).asDouble();
            }
            String[] l = new String[labels.size()];
            for (int i = 0; i < l.length; i++) {
                l[i] = labels.get(i).asText();
            }
            return new Axis(b, l);
        }

        String label(double value) {
            for (int i = 0; i < labels.length; i++) {
                if (value <= bins[i + 1]) {
                    return labels[i];
                }
            }
            return labels[labels.length - 1];
        }
    }
}
