package io.servesim.latency;

import io.servesim.config.ConfigException;
import java.util.Locale;
import java.util.OptionalInt;

/**
 * Analytical step time from the model architecture and the GPU's peak compute and bandwidth (a
 * roofline), after BLIS's {@code sim/latency/roofline.go} ({@code rooflineStepTime}: one forward
 * pass per step, weights read once, phase-specific MFU, single compute/memory crossover) and its
 * {@code docs/design/roofline.md}. Everything is per GPU of a tensor-parallel group of {@code tp}.
 *
 * <pre>
 * compute_s = prefill FLOPs / (tp x peak x mfuPrefill) + decode FLOPs / (tp x peak x mfuDecode)
 * memory_s  = (weights read + KV read + KV written + activations) / (bandwidth x BANDWIDTH_EFFICIENCY)
 * step_us   = max(compute_s, memory_s) x 1e6 + all-reduce_us + STEP_OVERHEAD_US
 * </pre>
 * <ul>
 *   <li>FLOPs: 2 per active matmul weight per token (attention projections, dense MLPs, shared +
 *       top-k routed experts, router); LM head once per sequence (logits of its last token only);
 *       attention 2 x heads x (qk + v head dims) x layers per (query, key) pair, where a prefill
 *       chunk of n new tokens over c cached ones has n x c + n(n+1)/2 causal pairs and a decode
 *       token over c cached ones has c + 1.</li>
 *   <li>Bytes: all non-expert weights and the LM head once per step, shared by the prefill and
 *       decode parts (vLLM v1 runs them as one batch). MoE layers read only the experts the step's
 *       T tokens touch: the expected number of distinct experts under uniform top-k routing,
 *       E x (1 - (1 - k/E)^T), which is at most min(E, T x k). KV cache: each sequence's cached
 *       context is read once, every new token's K/V is written (per-GPU KV heads, see
 *       {@link ModelArchitecture#kvBytesPerTokenPerGpu}). Activations: each layer's hidden state
 *       written and read once per token (replicated on every TP rank).</li>
 *   <li>Tensor parallelism: compute and weights divide by tp; two all-reduces per layer (after
 *       attention and after the MLP) of tokens x hidden x dtype bytes, ring cost
 *       2(tp-1)/tp x bytes / {@link GpuSpec#allReduceGBps()} plus {@link #ALL_REDUCE_LATENCY_US}
 *       each, not overlapped with compute.</li>
 * </ul>
 * Not modelled: softmax/norm/rotary vector ops, kernel-level inefficiency beyond MFU and the one
 * bandwidth efficiency, attention-kernel differences between prefill and decode (vLLM runs a step that
 * mixes a prefill chunk with decodes at up to 1.8x the cost of its parts apart; see the validation
 * package's notes).
 */
public final class RooflineModel implements LatencyModel {
    /**
     * Fixed cost of every engine step in microseconds: vLLM's CPU-side scheduling, input preparation
     * and sampling, not overlapped with the GPU. 500 us, BLIS's {@code TOverheadMicros} example in
     * {@code docs/design/roofline.md}. An empty step costs only this.
     */
    public static final long STEP_OVERHEAD_US = 500;
    /**
     * Fixed latency of one all-reduce in microseconds (launch plus synchronisation), BLIS's
     * {@code allReduceLatency} example value; the vidur H100 profile measures 7-44 us for NCCL
     * all-reduces up to 8 MB.
     */
    public static final double ALL_REDUCE_LATENCY_US = 20.0;
    /**
     * Share of the datasheet's peak memory bandwidth that a step's weight and KV traffic achieves:
     * 0.72, BLIS's {@code BwEffConstant} ("real-world effective bandwidth versus theoretical peak",
     * inference-sim {@code docs/design/roofline.md}), applied to every GPU. For scale, the LLMServingSim
     * per-layer profile of Llama-3.1-8B on an RTX PRO 6000 moves decode GEMM weights at 0.78-0.89 of
     * peak and decode-attention KV at 0.83, before kernel launch gaps between layers.
     */
    public static final double BANDWIDTH_EFFICIENCY = 0.72;

    private final ModelArchitecture model;
    private final GpuSpec gpu;
    private final int tp;
    private final double mfuPrefill;
    private final double mfuDecode;
    private final double prefillFlopsPerSecond;
    private final double decodeFlopsPerSecond;
    private final double bytesPerSecond;
    private final double linearFlopsPerToken;
    private final double lmHeadFlopsPerSequence;
    private final double attentionFlopsPerPair;
    private final double alwaysReadBytes;
    private final double expertBytesAllMoeLayers;
    private final int experts;
    private final double expertMissProbability;
    private final double kvBytesPerToken;
    private final double activationBytesPerToken;
    private final double allReduceUsPerToken;
    private final double allReduceFixedUs;

    /**
     * @param mfuPrefill MFU of prefill compute, in (0, 1]
     * @param mfuDecode  MFU of decode compute, in (0, 1]
     */
    public RooflineModel(ModelArchitecture model, GpuSpec gpu, int tp, double mfuPrefill, double mfuDecode) {
        if (tp < 1 || !GpuSpec.validMfu(mfuPrefill) || !GpuSpec.validMfu(mfuDecode)) {
            throw new IllegalArgumentException("tp must be >= 1 and MFU in (0, 1]");
        }
        this.model = model;
        this.gpu = gpu;
        this.tp = tp;
        this.mfuPrefill = mfuPrefill;
        this.mfuDecode = mfuDecode;
        double peak = gpu.peakFlopsPerSecond(model.weightBytesPerParam());
        this.prefillFlopsPerSecond = tp * peak * mfuPrefill;
        this.decodeFlopsPerSecond = tp * peak * mfuDecode;
        this.bytesPerSecond = gpu.memoryBytesPerSecond() * BANDWIDTH_EFFICIENCY;
        this.linearFlopsPerToken = model.linearFlopsPerToken();
        this.lmHeadFlopsPerSequence = model.lmHeadFlopsPerSequence();
        this.attentionFlopsPerPair = model.attentionFlopsPerPair();
        this.alwaysReadBytes = model.alwaysReadWeightBytes() / tp;
        ModelArchitecture.FeedForward ff = model.feedForward();
        this.expertBytesAllMoeLayers = ff.moeLayers() * model.expertBytes() / tp;
        this.experts = ff.experts();
        this.expertMissProbability = ff.isMoe() ? 1.0 - (double) ff.expertsPerToken() / ff.experts() : 1.0;
        this.kvBytesPerToken = model.kvBytesPerTokenPerGpu(tp);
        this.activationBytesPerToken = 2.0 * model.layers() * model.hiddenSize() * model.dtypeBytes();
        int allReduces = 2 * model.layers();
        this.allReduceFixedUs = tp > 1 ? allReduces * ALL_REDUCE_LATENCY_US : 0;
        this.allReduceUsPerToken = tp > 1
                ? allReduces * 2.0 * (tp - 1) / tp * model.hiddenSize() * model.dtypeBytes()
                        / gpu.allReduceBytesPerSecond() * 1e6
                : 0;
    }

    /**
     * The {@code roofline} kind ({@link LatencyKind#ROOFLINE}, and {@code auto}'s fallback when there
     * are no coefficients): needs a bundled model (or config.json) and a GPU, a TP that shards the
     * attention heads as vLLM does, and takes the GPU's MFU unless overridden.
     */
    static ResolvedLatency resolve(LatencyContext c) {
        c.rejectCoefficients();
        LatencySpec spec = c.spec();
        String path = c.path();
        int tp = spec.tp();
        if (spec.modelId() == null) {
            throw new ConfigException(path + ".model", "the roofline model needs a model: one of "
                    + String.join(", ", ModelCatalog.builtIn().ids()) + ", or the path of a config.json");
        }
        GpuSpec gpu = c.gpu();
        ModelArchitecture arch = c.arch();
        if (arch == null) {
            String prefix = c.kind() == LatencyKind.AUTO ? "no trained blackbox coefficients for (" + c.modelKey() + ", "
                    + (gpu == null ? "no GPU" : gpu.name()) + ", tp " + tp + ") and the roofline fallback needs a bundled model: " : "";
            throw new ConfigException(path + ".model", prefix + "unknown model '" + spec.modelId() + "'; bundled: "
                    + String.join(", ", ModelCatalog.builtIn().ids()) + " (or give the path of a config.json)");
        }
        if (gpu == null) {
            throw new ConfigException(path + ".hardware", "the roofline model needs hardware; known: "
                    + String.join(", ", GpuCatalog.builtIn().names()));
        }
        checkTensorParallel(arch, tp, path + ".tp");
        double mfuPrefill = Double.isNaN(spec.mfuPrefill()) ? gpu.mfuPrefill() : spec.mfuPrefill();
        double mfuDecode = Double.isNaN(spec.mfuDecode()) ? gpu.mfuDecode() : spec.mfuDecode();
        return new ResolvedLatency(new RooflineModel(arch, gpu, tp, mfuPrefill, mfuDecode), OptionalInt.empty(), arch, gpu);
    }

    private static void checkTensorParallel(ModelArchitecture arch, int tp, String path) {
        ModelArchitecture.Attention a = arch.attention();
        if (a.heads() % tp != 0) {
            throw new ConfigException(path, "tp " + tp + " must divide the " + a.heads() + " attention heads of " + arch.name());
        }
        if (!a.isMla() && a.kvHeads() % tp != 0 && tp % a.kvHeads() != 0) {
            throw new ConfigException(path, "tp " + tp + " must divide the " + a.kvHeads() + " KV heads of " + arch.name()
                    + " or be a multiple of them");
        }
    }

    @Override
    public String name() {
        return "roofline";
    }

    @Override
    public String describe() {
        return String.format(Locale.ROOT,
                "roofline %s on %s x TP%d: %.1f TFLOPS/GPU at MFU %.2f prefill / %.2f decode, %.3f TB/s x %.2f; "
                        + "%.2f GB always-read weights/GPU, %d B KV/token/GPU; +%d us/step, %.0f us per all-reduce",
                model.name(), gpu.name(), tp, gpu.peakFlopsPerSecond(model.weightBytesPerParam()) / 1e12,
                mfuPrefill, mfuDecode, gpu.memoryBandwidthTBps(), BANDWIDTH_EFFICIENCY, alwaysReadBytes / 1e9,
                (long) kvBytesPerToken, STEP_OVERHEAD_US, tp > 1 ? ALL_REDUCE_LATENCY_US : 0.0);
    }

    @Override
    public long stepTimeUs(StepShape step) {
        if (step.batchSize() == 0) {
            return STEP_OVERHEAD_US;
        }
        double prefillFlops = step.prefillTokens() * linearFlopsPerToken + step.prefillSeqs() * lmHeadFlopsPerSequence;
        for (int i = 0; i < step.prefillSeqs(); i++) {
            double n = step.prefillNewTokens(i);
            prefillFlops += attentionFlopsPerPair * (n * step.prefillContextTokens(i) + n * (n + 1) / 2);
        }
        double decodeFlops = step.decodeTokens() * (linearFlopsPerToken + lmHeadFlopsPerSequence)
                + attentionFlopsPerPair * (step.decodeContextTokens() + step.decodeSeqs());
        double computeS = prefillFlops / prefillFlopsPerSecond + decodeFlops / decodeFlopsPerSecond;

        long tokens = step.totalTokens();
        double bytes = alwaysReadBytes + touchedExperts(tokens) * expertBytesAllMoeLayers
                + (step.prefillContextTokens() + step.decodeContextTokens() + tokens) * kvBytesPerToken
                + tokens * activationBytesPerToken;
        double memoryS = bytes / bytesPerSecond;

        double us = Math.max(computeS, memoryS) * 1e6 + allReduceFixedUs + tokens * allReduceUsPerToken
                + STEP_OVERHEAD_US;
        return Math.max(1L, Math.round(us));
    }

    /** Expected distinct routed experts per MoE layer touched by {@code tokens} tokens (0 for dense models). */
    double touchedExperts(long tokens) {
        return experts * (1.0 - StrictMath.pow(expertMissProbability, tokens));
    }
}
