package io.servesim.latency;

import io.servesim.config.ConfigException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalInt;

/**
 * Step time from a measured per-layer profile ({@link LayerProfile}), summed the way
 * casys-kaist/LLMServingSim builds one iteration ({@code serving/core/trace_generator.py}): the
 * architecture's prologue and head layers once, its decoder-layer sequence
 * {@code num_hidden_layers} times, each layer looked up in its table:
 * <pre>
 * step_us = sum(prologue, head) + num_hidden_layers x sum(decoder layer) + TP all-reduces
 * dense layer      at the step's tokens (prefill + decode; at least 1)
 * per-sequence     at the step's sequences (vLLM computes logits for every scheduled request, and for every
 *                  draft token it verifies under speculative decoding; at least 1)
 * attention        at (new prefill tokens, their prior KV summed, decode count, mean decode KV),
 *                  plus the skew correction toward the longest decode's KV
 * moe              at (the step's tokens, the experts they activate), {@link MoeTable}
 * </pre>
 * The experts a MoE step activates follow LLMServingSim's default BALANCED gate
 * ({@code serving/core/gate_function.py _balanced_route_ep} @ 5daddb2, one expert-parallel rank): a gate trained with a
 * load-balancing loss spreads the tokens' {@code top_k} choices evenly, so {@code min(round(tokens x top_k), experts)}
 * distinct experts fire.
 * Interpolation and extrapolation are those of {@link PiecewiseLinear} and {@link AttentionGrid}.
 * An empty step is priced like a one-token, one-sequence step without attention.
 *
 * <p>The tables hold one GPU's kernels only; for TP &gt; 1 the two all-reduces per decoder layer
 * (after o_proj and down_proj, as LLMServingSim attaches them) cost what {@link RooflineModel}
 * charges: {@link AllReduce} of tokens x hidden x dtype bytes over the GPU's interconnect, its custom
 * all-reduce's launch at the bundled cross-GPU per-kernel cost.
 *
 * <p>Speculative decoding's verify pass is priced by these terms: its draft tokens are tokens of the dense layers and
 * logit rows of the per-sequence layers; attention sees each verifying sequence as one decode (the measured grid has no
 * axis for several queries per sequence), which leaves out the drafts' own attention FLOPs.
 *
 * <p>No CPU overhead is added: vLLM's scheduling overlaps the GPU, and LLMServingSim reports
 * -1.0% TPOT against the real RTX PRO 6000 run with the GPU tables alone.
 */
public final class ProfiledModel implements ExpertParallelModel {
    /** The MoE block's layer name in the architectures' sequences. */
    private static final String MOE = "moe";

    private final String label;
    private final int layers;
    private final PiecewiseLinear[] layerByTokens;
    private final PiecewiseLinear[] layerBySequences;
    private final int attentionsPerLayer;
    private final PiecewiseLinear[] onceByTokens;
    private final PiecewiseLinear[] onceBySequences;
    private final AttentionGrid attention;
    private final SkewCorrection skew;
    private final AllReduce allReduce;
    private final int allReduces;
    private final double allReduceBytesPerToken;
    private final String interconnectNote;
    private final int moesPerLayer;
    private final MoeTable moe;
    private final int experts;
    private final ModelArchitecture model;
    /** Microseconds per byte streamed at the GPU's achievable bandwidth (the roofline's memory efficiency). */
    private final double usPerByte;

    /**
     * @param profile  the measured tables
     * @param sequence the layers a step runs
     * @param model    the served model (its {@code num_hidden_layers}, hidden size and dtype)
     * @param gpu      the GPU (its interconnect, used only when the profile's TP is above 1; its memory bandwidth)
     * @param label    short name of the profile for {@link #describe()}
     */
    ProfiledModel(LayerProfile profile, ProfileArchitecture sequence, ModelArchitecture model, GpuSpec gpu, String label) {
        this.label = String.format(Locale.ROOT, "%s (%s, vLLM %s, %s TP%d) x %d layers of %s", label, profile.model(),
                profile.vllmVersion(), profile.hardware(), profile.tp(), model.layers(), model.name());
        this.model = model;
        this.layers = model.layers();
        this.attention = profile.attention();
        this.skew = profile.skew();
        List<PiecewiseLinear> byTokens = new ArrayList<>();
        List<PiecewiseLinear> bySeqs = new ArrayList<>();
        int attentions = 0;
        int moes = 0;
        for (String name : sequence.layer()) {
            if (name.equals("attention")) {
                attentions++;
            } else if (name.equals(MOE)) {
                moes++;
            } else {
                add(profile, name, byTokens, bySeqs);
            }
        }
        this.attentionsPerLayer = attentions;
        this.moesPerLayer = moes;
        this.moe = moes == 0 ? null : moeTable(profile, model);
        this.experts = model.feedForward().experts();
        this.layerByTokens = byTokens.toArray(PiecewiseLinear[]::new);
        this.layerBySequences = bySeqs.toArray(PiecewiseLinear[]::new);
        byTokens.clear();
        bySeqs.clear();
        for (String name : concat(sequence.prologue(), sequence.head())) {
            add(profile, name, byTokens, bySeqs);
        }
        this.onceByTokens = byTokens.toArray(PiecewiseLinear[]::new);
        this.onceBySequences = bySeqs.toArray(PiecewiseLinear[]::new);
        int tp = profile.tp();
        this.allReduces = tp > 1 ? 2 * model.layers() : 0;
        this.allReduce = tp > 1 ? new AllReduce(gpu.interconnect(), tp, RooflineConstants.bundled().kernelLaunchUs()) : null;
        this.allReduceBytesPerToken = (double) model.hiddenSize() * model.dtypeBytes();
        this.interconnectNote = RooflineModel.interconnectNote(gpu, allReduce);
        this.usPerByte = 1e6 / (gpu.memoryBytesPerSecond() * RooflineConstants.bundled().memoryEfficiency());
    }

    /**
     * The {@code profiled} kind ({@link LatencyKind#PROFILED}): the measured profile bundled for the
     * (model, GPU, TP) triple ({@link ProfileCatalog}: this per-layer model or a {@link SplitwiseModel});
     * needs a model and a GPU, takes no coefficients.
     */
    static ResolvedLatency resolve(LatencyContext c) {
        c.rejectCoefficients();
        LatencySpec spec = c.spec();
        if (spec.modelId() == null || c.gpu() == null) {
            throw new ConfigException(c.path() + (spec.modelId() == null ? ".model" : ".hardware"), "the profiled model needs a "
                    + "model and hardware; bundled profiles: " + String.join("; ", ProfileCatalog.builtIn().available()));
        }
        LatencyModel model = spec.profileDir() != null
                ? ProfileCatalog.fromDirectory(spec.profileDir(), architecture(c), c.gpu(), spec.gpus(), spec.tp(),
                        c.path() + ".profile")
                : ProfileCatalog.builtIn().resolve(spec.modelId(), c.arch(), c.gpu(), spec.tp(), c.path(), c.kindKey());
        return new ResolvedLatency(model, OptionalInt.empty(), c.arch(), c.gpu());
    }

    /** A profile directory's per-layer costs scale with the model's layers: its architecture must be known. */
    private static ModelArchitecture architecture(LatencyContext c) {
        if (c.arch() == null) {
            throw new ConfigException(c.path() + ".model", "a profile directory needs the model's architecture: give a bundled"
                    + " model id or a config.json path");
        }
        return c.arch();
    }

    @Override
    public String name() {
        return "profiled";
    }

    @Override
    public String describe() {
        return "profiled " + label + interconnectNote;
    }

    @Override
    public long stepTimeUs(StepShape step) {
        double tokens = Math.max(1, step.totalTokens());
        double moeUs = moe == null ? 0 : moesPerLayer * moe.timeUs(tokens, model.feedForward().expectedActiveExperts(tokens));
        return Math.max(1L, Math.round(layersUs(step, tokens, Math.max(1, step.logitRows()), moeUs)));
    }

    /**
     * Expert parallelism: the rank's tables at the {@code runTokens} it runs, its per-sequence layers at its sequences
     * plus any padding's tokens (each padded token a dummy decode with a logit, as LLMServingSim's
     * {@code _build_batch_ctx} counts {@code lm_head_len}), attention over its own requests; then the shared MoE part.
     */
    @Override
    public double rankStepUs(StepShape own, long runTokens, double sharedUs) {
        double seqs = Math.max(1, own.batchSize() + runTokens - own.totalTokens());
        return layersUs(own, Math.max(1, runTokens), seqs, 0) + sharedUs;
    }

    /**
     * The busiest rank's MoE block over {@code ep} ranks, T = {@code tokensPerRank} (the rank's padded token count, or
     * the ranks' mean unpadded): its token-expert pairs are {@code load} x T x k of the gathered ep x T tokens' pairs,
     * and its experts touched are its share of the gathered tokens' distinct experts,
     * {@link ModelArchitecture.FeedForward#expectedActiveExperts}(ep x T) / ep, at most E / ep; looked up in the TP 1
     * MoE table at the tokens whose k pairs each are the rank's pairs ({@code load} x T) and those experts, as
     * LLMServingSim's {@code _balanced_route_ep} prices a rank (casys-kaist/LLMServingSim@0d3de681, distinct experts
     * over the group-wide token count). Imbalance concentrates pairs on the hot experts, which are touched anyway, so
     * it leaves the distinct count alone.
     */
    @Override
    public double expertBlockUs(double tokensPerRank, int ep, double load) {
        if (moe == null || tokensPerRank <= 0) {
            return 0;
        }
        double pairTokens = Math.min(ep * tokensPerRank, tokensPerRank * load);
        double activated = Math.min(model.feedForward().expectedActiveExperts(ep * tokensPerRank) / ep,
                Math.max(1, experts / ep));
        return moesPerLayer * moe.timeUs(pairTokens, Math.max(1, activated));
    }

    /** The tables measure no such work: priced at the roofline's achievable bandwidth for the GPU. */
    @Override
    public double streamUs(double bytes) {
        return bytes * usPerByte;
    }

    @Override
    public ModelArchitecture architecture() {
        return model;
    }

    /**
     * The step's layers, dense tables at {@code tokens}, per-sequence ones at {@code seqs}, and {@code moePerLayerUs} of
     * MoE blocks in every decoder layer.
     */
    private double layersUs(StepShape step, double tokens, double seqs, double moePerLayerUs) {
        double perLayer = attentionsPerLayer * attentionUs(step);
        perLayer += moePerLayerUs;
        for (PiecewiseLinear c : layerByTokens) {
            perLayer += c.at(tokens);
        }
        for (PiecewiseLinear c : layerBySequences) {
            perLayer += c.at(seqs);
        }
        double us = layers * perLayer;
        for (PiecewiseLinear c : onceByTokens) {
            us += c.at(tokens);
        }
        for (PiecewiseLinear c : onceBySequences) {
            us += c.at(seqs);
        }
        if (allReduce != null) {
            us += allReduces * allReduce.timeUs(tokens * allReduceBytesPerToken);
        }
        return us;
    }

    /** One layer's attention: the table at the mean decode KV, corrected toward the longest (LLMServingSim's skew model). */
    double attentionUs(StepShape step) {
        int decodes = step.decodeSeqs();
        if (step.batchSize() == 0) {
            return 0;
        }
        double meanKv = decodes == 0 ? 0 : (double) step.decodeContextTokens() / decodes;
        double t = attention.timeUs(step.prefillTokens(), step.prefillContextTokens(), decodes, meanKv);
        if (decodes < 2) {
            return t;
        }
        int minKv = Integer.MAX_VALUE;
        int maxKv = 0;
        for (int i = 0; i < decodes; i++) {
            int kv = step.decodeContextTokens(i);
            minKv = Math.min(minKv, kv);
            maxKv = Math.max(maxKv, kv);
        }
        if (maxKv == minKv) {
            return t;
        }
        double alpha = skew.alpha(step.prefillTokens(), decodes, (meanKv - minKv) / (maxKv - minKv), maxKv,
                step.prefillContextTokens());
        if (alpha <= 0) {
            return t;
        }
        double tMax = attention.timeUs(step.prefillTokens(), step.prefillContextTokens(), decodes, maxKv);
        return tMax > t ? t + alpha * (tMax - t) : t;
    }

    /** The MoE table of a profile whose architecture runs a MoE block in every decoder layer. */
    private static MoeTable moeTable(LayerProfile profile, ModelArchitecture model) {
        ModelArchitecture.FeedForward f = model.feedForward();
        if (!f.isMoe() || f.moeLayers() != model.layers()) {
            throw new ConfigException(profile.where(), "architecture " + profile.architecture() + " runs a MoE block in"
                    + " every decoder layer, but " + model.name() + " has " + f.moeLayers() + " MoE layers of "
                    + model.layers());
        }
        if (profile.moeOrNull() == null) {
            throw new ConfigException(profile.where(), "architecture " + profile.architecture() + " runs layer 'moe',"
                    + " which the profile does not measure (no tp1/moe.csv)");
        }
        if (profile.tp() > 1) {
            throw new ConfigException(profile.where(), "a MoE model's profile is used at TP 1 only: at TP " + profile.tp()
                    + " vLLM splits every expert across the GPUs (or, with enable_expert_parallel, the experts), which the"
                    + " TP 1 MoE table does not measure");
        }
        return profile.moeOrNull();
    }

    private static void add(LayerProfile profile, String name, List<PiecewiseLinear> byTokens, List<PiecewiseLinear> bySeqs) {
        PiecewiseLinear seq = profile.perSequence().get(name);
        PiecewiseLinear dense = profile.dense().get(name);
        if (seq != null) {
            bySeqs.add(seq);
        } else if (dense != null) {
            byTokens.add(dense);
        } else {
            throw new ConfigException(profile.where(), "architecture " + profile.architecture() + " runs layer '" + name
                    + "', which the profile does not measure; profiled: " + String.join(", ", profile.layerNames()));
        }
    }

    private static List<String> concat(List<String> a, List<String> b) {
        List<String> out = new ArrayList<>(a);
        out.addAll(b);
        return out;
    }
}
