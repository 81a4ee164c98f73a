package io.servesim.latency;

import io.servesim.config.ConfigException;
import java.util.Locale;
import java.util.OptionalInt;

/**
 * Analytical step time priced operator by operator from the model architecture, the GPU's datasheet
 * row ({@link GpuSpec}) and the few cross-GPU {@link RooflineConstants}. Everything is per GPU of a
 * tensor-parallel group of {@code tp}; a step of T tokens (prefill plus decode) over S sequences costs
 * <pre>
 * step_us = max(gpu_us, cpu_us)          (async scheduling: the CPU work of a step overlaps the GPU's)
 * cpu_us  = stepOverhead + S x perSequence
 * gpu_us  = layers x OTHER_KERNELS_PER_LAYER x kernelLaunch     (norms, rotary, KV write, attention, activation)
 *         + sum over layers of the GEMMs at M = T  ({@link Gemm}: tile and wave quantized roofline)
 *         + MoE experts: vLLM's fused MoE, one grouped GEMM per expert weight over the touched experts'
 *                        T x k rows, each touched expert's weights read once ({@link FusedMoe})
 *         + LM head GEMM at M = S   (vLLM computes logits of each scheduled sequence's last token, and of every
 *                                    draft token it verifies under speculative decoding)
 *         + attention: prefill FlashAttention FLOPs at the tensor efficiency (or its KV reads at the attention
 *                      efficiency, if more);
 *                      decode reads each sequence's paged KV cache at the attention efficiency, or on
 *                      FlashAttention-3 its packed query tiles' MMAs if longer; in a mixed step each decode
 *                      also pays 64-row query tiles, on FlashAttention-2 GPUs in SM cycles beyond their
 *                      MMAs ({@link #attentionUs})
 *         + element-wise ops (norms, rotary, SiLU x mul) as bytes at the memory efficiency
 *         + 2 all-reduces per layer of tokens x hidden x dtype bytes when tp > 1 ({@link AllReduce})
 * </pre>
 * GEMMs per layer (N, K per rank): QKV ((heads + 2 kvHeads) x headDim / tp, hidden), O (hidden,
 * heads x headDim / tp), gate/up (2 x intermediate / tp, hidden), down (hidden, intermediate / tp);
 * MoE layers add a router (experts, hidden) and shared experts; the LM head is (vocab / tp, hidden).
 * Multi-head latent attention's projections are priced as one GEMM of their summed width plus O.
 * This is the operator decomposition of Vidur (microsoft/vidur, {@code sarathi-serve}'s
 * {@code attn_pre_proj}, {@code attn_post_proj}, {@code mlp_up_proj}, {@code mlp_down_proj}) and of
 * LLMServingSim's per-layer profiles, priced by a roofline instead of measured: every GPU is the same
 * physics at its own peaks, SM count and bandwidth.
 *
 * <p>CPU time: vLLM schedules and prepares step n+1 while the GPU runs step n when async scheduling is on
 * ({@code vllm/v1/core/sched/async_scheduler.py}, vllm-project/vllm PR #19970; on by default since the
 * plan of vllm-project/vllm issue #27679, PR #27614: {@code SchedulerConfig.async_scheduling} defaults to
 * None, "if set to False, disable async scheduling"), so a step takes the longer of its GPU work and its
 * CPU work.
 * Engines without it (vLLM up to 0.11, which the trained BLIS coefficients measured, and Splitwise's)
 * pay both in series: {@link #serialStepTimeUs}.
 *
 * <p>Tensor parallelism: two all-reduces per layer, after attention's output projection and after the MLP's down
 * projection, as vLLM's Megatron-style {@code RowParallelLinear} reduces them ({@code vllm/model_executor/models/llama.py}),
 * each of tokens x hidden x dtype bytes, not overlapped with compute: vLLM's custom all-reduce or NCCL over the GPU's
 * link ({@link AllReduce}, from {@link GpuSpec#interconnect()}), so the same step costs more over PCIe than over
 * NVLink, and more again across nodes.
 *
 * <p>Not modelled: kernel fusion beyond what the element-wise bytes assume, split-K GEMMs, attention
 * kernels' own tiling (but for FlashAttention-2's query tiles beside a prefill chunk and FlashAttention-3's packed
 * decode tiles), MoE load imbalance (routing is uniform: the expected number of distinct experts T tokens touch is
 * E x (1 - (1 - k/E)^T)).
 */
public final class RooflineModel implements ExpertParallelModel {
    /**
     * Kernels of a decoder layer besides its GEMMs, each costing {@link RooflineConstants#kernelLaunchUs()}:
     * input and post-attention RMSNorm, rotary embedding, the attention block's {@link #ATTENTION_KERNELS},
     * SiLU-and-mul, as vLLM's Llama layer runs them ({@code vllm/model_executor/models/llama.py}; LLMServingSim
     * profiles the same per-layer operators, its {@code attention} row timing both attention kernels).
     */
    public static final int OTHER_KERNELS_PER_LAYER = 6;
    /**
     * Kernels of a layer's attention block: the write of the step's new keys and values into the paged cache, then
     * the attention kernel ({@code FlashAttentionImpl.forward} runs {@code reshape_and_cache_flash} before
     * {@code flash_attn_varlen_func}, {@code vllm/v1/attention/backends/flash_attn.py}).
     */
    public static final int ATTENTION_KERNELS = 2;
    /**
     * Query rows of a FlashAttention-2 tile in its paged (split-KV) kernel, {@code kBlockM = 64} for every
     * head size ({@code Flash_fwd_kernel_traits} of {@code flash_fwd_launch_template.h}'s
     * {@code run_mha_fwd_splitkv_dispatch}, Dao-AILab/flash-attention and vllm-project/flash-attention).
     */
    public static final int FLASH_ATTENTION_TILE_ROWS = 64;

    private final ModelArchitecture model;
    private final GpuSpec gpu;
    private final int tp;
    private final RooflineConstants constants;
    private final int layers;
    private final Gemm[] everyLayer;
    private final Gemm[] denseLayer;
    private final int denseLayers;
    private final Gemm[] moeLayer;
    /** The routed experts of a MoE layer (null for a dense model). */
    private final FusedMoe fusedMoe;
    private final int moeLayers;
    private final int experts;
    private final double expertsPerToken;
    private final Gemm lmHead;
    private final double usPerAttentionPair;
    private final double usPerKvToken;
    /** Whether a mixed step's decodes run FlashAttention-2's query tiles ({@link AttentionBackend}), priced in SM cycles. */
    private final boolean flashAttention2;
    /** All layers' (decode, query head) blocks per SM cycle of the GPU: layers x query heads per rank / (SMs x MHz). */
    private final double usPerTileCycle;
    /**
     * Query rows per query head that FlashAttention-3's tiles compute for a decode ({@link #attentionUs}), or 0 where
     * vLLM does not run it.
     */
    private final double flashAttention3RowsPerDecode;
    private final double usPerToken;
    /** Microseconds per byte streamed at the achievable memory bandwidth. */
    private final double usPerByte;
    private final double gpuFixedUs;
    private final double perSequenceUs;
    /** The tensor-parallel all-reduce (null at TP 1), its count per step and bytes per token. */
    private final AllReduce allReduce;
    private final int allReducesPerStep;
    private final double allReduceBytesPerToken;

    /** The model with the bundled cross-GPU constants. */
    public RooflineModel(ModelArchitecture model, GpuSpec gpu, int tp) {
        this(model, gpu, tp, RooflineConstants.bundled());
    }

    public RooflineModel(ModelArchitecture model, GpuSpec gpu, int tp, RooflineConstants constants) {
        if (tp < 1) {
            throw new IllegalArgumentException("tp must be >= 1");
        }
        this.model = model;
        this.gpu = gpu;
        this.tp = tp;
        this.constants = constants;
        this.layers = model.layers();
        ModelArchitecture.Attention a = model.attention();
        ModelArchitecture.FeedForward ff = model.feedForward();
        int h = model.hiddenSize();
        double w = model.weightBytesPerParam();
        int act = model.dtypeBytes();
        double peak = gpu.peakFlopsPerSecond(w);
        int kvHeadsPerRank = Math.max(1, a.kvHeads() / tp);
        int qkvWidth = a.isMla()
                ? (int) Math.ceil((a.paramsPerLayer(h) - (double) a.heads() * a.vHeadDim() * h) / h / tp)
                : (a.heads() / tp + 2 * kvHeadsPerRank) * a.headDim();
        this.everyLayer = new Gemm[] {
                new Gemm(qkvWidth, h, w, act, peak, gpu, constants),
                new Gemm(h, a.heads() / tp * a.vHeadDim(), w, act, peak, gpu, constants)};
        this.denseLayers = ff.denseLayers();
        this.denseLayer = mlp(ff.denseIntermediateSize() / tp, h, w, act, peak, gpu, constants);
        this.moeLayers = ff.moeLayers();
        Gemm router = new Gemm(Math.max(1, ff.experts()), h, w, act, peak, gpu, constants);
        Gemm[] shared = mlp(ff.sharedIntermediateSize() / tp, h, w, act, peak, gpu, constants);
        this.moeLayer = shared.length == 0 ? new Gemm[] {router} : new Gemm[] {router, shared[0], shared[1]};
        this.fusedMoe = ff.isMoe() ? new FusedMoe(ff.expertIntermediateSize() / tp, h, w, act, peak, gpu, constants) : null;
        this.experts = ff.experts();
        this.expertsPerToken = ff.expertsPerToken();
        this.lmHead = new Gemm((int) Math.ceil((double) model.vocabSize() / tp), h, act, act,
                gpu.peakFlopsPerSecond(act), gpu, constants);
        this.usPerByte = 1e6 / (gpu.memoryBytesPerSecond() * constants.memoryEfficiency());
        this.usPerAttentionPair = model.attentionFlopsPerPair() / tp * 1e6
                / (gpu.peakFlopsPerSecond(act) * constants.tensorEfficiency());
        this.usPerKvToken = model.kvBytesPerTokenPerGpu(tp) * 1e6 / (gpu.memoryBytesPerSecond() * constants.attentionEfficiency());
        this.flashAttention2 = AttentionBackend.of(gpu.computeCapability()) == AttentionBackend.FLASH_ATTENTION_2 && !a.isMla();
        this.usPerTileCycle = flashAttention2 ? (double) layers * a.heads() / tp / gpu.smCyclesPerUs() : 0;
        boolean flashAttention3 = AttentionBackend.of(gpu.computeCapability()) == AttentionBackend.FLASH_ATTENTION_3 && !a.isMla();
        this.flashAttention3RowsPerDecode = flashAttention3 ? flashAttention3RowsPerDecode(a.heads() / tp, kvHeadsPerRank, a.headDim()) : 0;
        double activeIntermediate = (ff.denseLayers() * (double) ff.denseIntermediateSize()
                + ff.moeLayers() * ((double) ff.expertsPerToken() * ff.expertIntermediateSize() + ff.sharedIntermediateSize()))
                / layers / tp;
        double elementwiseBytesPerLayer = act * (4.0 * h + 3.0 * activeIntermediate
                + 2.0 * (a.heads() / tp + kvHeadsPerRank) * a.qkHeadDim());
        this.usPerToken = layers * elementwiseBytesPerLayer * usPerByte;
        this.allReduce = tp > 1 ? new AllReduce(gpu.interconnect(), tp, constants.kernelLaunchUs()) : null;
        this.allReducesPerStep = tp > 1 ? 2 * layers : 0;
        this.allReduceBytesPerToken = (double) h * act;
        this.gpuFixedUs = layers * OTHER_KERNELS_PER_LAYER * constants.kernelLaunchUs();
        this.perSequenceUs = constants.perSequenceUs();
    }

    /** Gate/up and down GEMMs of a SwiGLU MLP of {@code intermediatePerRank} columns per rank (none when 0). */
    private static Gemm[] mlp(int intermediatePerRank, int h, double w, int act, double peak, GpuSpec gpu, RooflineConstants c) {
        if (intermediatePerRank == 0) {
            return new Gemm[0];
        }
        return new Gemm[] {new Gemm(2 * intermediatePerRank, h, w, act, peak, gpu, c),
                new Gemm(h, intermediatePerRank, w, act, peak, gpu, c)};
    }

    /**
     * The {@code roofline} kind ({@link LatencyKind#ROOFLINE}, and {@code auto}'s fallback when there
     * are no coefficients): needs a bundled model (or config.json) and a GPU, and a TP that shards the
     * attention heads as vLLM does.
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
                    + String.join(", ", spec.gpus().names()));
        }
        checkTensorParallel(arch, tp, path + ".tp");
        return new ResolvedLatency(new RooflineModel(arch, gpu, tp), OptionalInt.empty(), arch, gpu);
    }

    /**
     * The roofline model of {@code arch} on {@code tp} x {@code gpu}, refused (a {@link ConfigException} at {@code tpPath})
     * when TP does not shard its heads as vLLM does: a draft model of speculative decoding, run at the target's TP.
     */
    public static RooflineModel sharded(ModelArchitecture arch, GpuSpec gpu, int tp, String tpPath) {
        checkTensorParallel(arch, tp, tpPath);
        return new RooflineModel(arch, gpu, tp);
    }

    private static void checkTensorParallel(ModelArchitecture arch, int tp, String path) {
        ModelArchitecture.Attention a = arch.attention();
        if (a.heads() % tp != 0) {
            throw new ConfigException(path, "tp " + tp + " must divide the " + a.heads() + " attention heads of " + arch.name()
                    + "; valid: " + validTensorParallel(a));
        }
        if (!shardsKvHeads(a, tp)) {
            throw new ConfigException(path, "tp " + tp + " must divide the " + a.kvHeads() + " KV heads of " + arch.name()
                    + " or be a multiple of them; valid: " + validTensorParallel(a));
        }
    }

    /** Whether {@code tp} shards the KV heads as vLLM does: divides them, or replicates each over tp / kvHeads GPUs. */
    private static boolean shardsKvHeads(ModelArchitecture.Attention a, int tp) {
        return a.isMla() || a.kvHeads() % tp == 0 || tp % a.kvHeads() == 0;
    }

    /** The TP degrees the model's heads allow, for a message. */
    private static String validTensorParallel(ModelArchitecture.Attention a) {
        java.util.List<String> out = new java.util.ArrayList<>();
        for (int tp = 1; tp <= a.heads(); tp++) {
            if (a.heads() % tp == 0 && shardsKvHeads(a, tp)) {
                out.add(String.valueOf(tp));
            }
        }
        return String.join(", ", out);
    }

    @Override
    public String name() {
        return "roofline";
    }

    @Override
    public String describe() {
        return String.format(Locale.ROOT, "roofline %s on %s x TP%d: per-operator GEMMs over %d SMs at %.1f TFLOPS, %.3f TB/s;"
                        + " attention: %s; cross-GPU constants: %s%s%s", model.name(), gpu.name(), tp, gpu.smCount(),
                gpu.peakFlopsPerSecond(model.weightBytesPerParam()) / 1e12, gpu.memoryBandwidthTBps(),
                model.attention().isMla() ? "multi-head latent attention" : AttentionBackend.of(gpu.computeCapability()).label(),
                constants.describe(),
                (model.weightBytesPerParam() == 1.0 && gpu.fp8Tflops() <= 0
                        ? "; FP8 weights as W8A16 (FP8 Marlin: no FP8 tensor cores)" : "")
                        + (model.kvDtypeBytes() == model.dtypeBytes() ? "" : "; KV cache at " + model.kvDtypeBytes()
                        + " byte(s) per element"),
                interconnectNote(gpu, allReduce));
    }

    /**
     * How a TP group's all-reduces run, for descriptions: {@code ; interconnect: NVLink 4, ...; all-reduce: vLLM custom
     * all-reduce below 8 MiB ...}; empty at TP 1.
     */
    static String interconnectNote(GpuSpec gpu, AllReduce allReduce) {
        return allReduce == null ? "" : "; interconnect: " + gpu.interconnect().describe() + "; all-reduce: " + allReduce.describe();
    }

    /**
     * Empty on a GPU whose GEMM kernels or engine steps the constants were fitted on ({@link RooflineConstants#fittedOn()});
     * on any other (a bundled row without such measurements, or a user's {@code deployment.gpus} row) the note that the
     * model prices it from its datasheet row and constants fitted on other GPUs.
     */
    @Override
    public String calibrationNote() {
        if (constants.fittedOn().contains(gpu.name())) {
            return "";
        }
        return "uncalibrated: no GEMM or engine-step measurements of " + gpu.name() + " were used in fitting; the roofline prices it from its"
                + " datasheet row (" + gpu.source() + ") and cross-GPU constants fitted on "
                + (constants.fittedOn().isEmpty() ? "no GPU" : String.join(", ", constants.fittedOn()));
    }

    /** The longer of the step's GPU work and its CPU work: vLLM with async scheduling (the default, see above). */
    @Override
    public long stepTimeUs(StepShape step) {
        return Math.max(1L, Math.round(Math.max(gpuUs(step), cpuUs(step))));
    }

    /** The step's GPU work plus its CPU work: an engine without async scheduling (vLLM up to 0.11). */
    public long serialStepTimeUs(StepShape step) {
        return Math.max(1L, Math.round(gpuUs(step) + cpuUs(step)));
    }

    /** The step's GPU work alone (a draft model's pass inside the target's step). */
    @Override
    public double forwardPassUs(StepShape step) {
        return gpuUs(step);
    }

    /**
     * One decoder layer's share of the step's GPU work but the LM head, plus the whole LM head: an EAGLE head or an MTP
     * module is one decoder layer feeding the target's LM head (Li et al. 2024, EAGLE, Sec. 3.1; DeepSeek-V3 technical
     * report, Sec. 2.2, its MTP module's shared output head).
     */
    @Override
    public double decoderLayerPassUs(StepShape step, int layerCount) {
        if (step.batchSize() == 0) {
            return 0;
        }
        double headUs = lmHead.timeUs(step.logitRows());
        return (gpuUs(step) - headUs) / layerCount + headUs;
    }

    /** CPU time of the step: the per-step cost plus the per-sequence cost. */
    double cpuUs(StepShape step) {
        return constants.stepOverheadUs() + perSequenceUs * step.batchSize();
    }

    /** GPU time of the step: every kernel of every layer, the LM head and the all-reduces (0 for an empty step). */
    double gpuUs(StepShape step) {
        if (step.batchSize() == 0) {
            return 0;
        }
        return gpuUs(step, step.totalTokens(), step.logitRows(), true);
    }

    /**
     * The step's GPU work with GEMMs and element-wise ops at {@code tokens}, the LM head at {@code seqs}, attention over
     * {@code step}'s sequences, and the routed experts when {@code experts} (at {@code tokens}).
     */
    private double gpuUs(StepShape step, long tokens, long seqs, boolean withExperts) {
        double layerUs = 0;
        for (Gemm g : everyLayer) {
            layerUs += layers * g.timeUs(tokens);
        }
        for (Gemm g : denseLayer) {
            layerUs += denseLayers * g.timeUs(tokens);
        }
        if (moeLayers > 0) {
            for (Gemm g : moeLayer) {
                layerUs += moeLayers * g.timeUs(tokens);
            }
            if (withExperts) {
                layerUs += moeLayers * fusedMoe.timeUs(tokens, experts, tokens * expertsPerToken, touchedExperts(tokens));
            }
        }
        return gpuFixedUs + layerUs + lmHead.timeUs(seqs) + attentionUs(step) + tokens * usPerToken + allReduceUs(tokens);
    }

    /**
     * Expert parallelism: the rank's GPU work at the {@code runTokens} it runs (its LM head at its sequences plus any
     * padding's dummy tokens, attention over its own requests) plus the shared MoE part, against its CPU work, which
     * async scheduling overlaps as on one engine.
     */
    @Override
    public double rankStepUs(StepShape own, long runTokens, double sharedUs) {
        long seqs = Math.max(1, own.batchSize() + runTokens - own.totalTokens());
        return Math.max(gpuUs(own, runTokens, seqs, false) + sharedUs, cpuUs(own));
    }

    /**
     * One MoE layer's routed experts on one of {@code ep} ranks of T tokens on average: the dispatch gathers ep x T
     * tokens into the rank's fused MoE ({@link FusedMoe}, over its E / ep experts), of whose ep x T x k expert choices
     * (uniform routing, as on one GPU) this rank's experts take T x k, on the expected number of them touched,
     * (E / ep) x (1 - (1 - k/E)^(ep x T)).
     */
    @Override
    public double expertBlockUs(double tokensPerRank, int ep, double load) {
        if (moeLayers == 0) {
            return 0;
        }
        double gathered = ep * tokensPerRank;
        double touched = model.feedForward().expectedActiveExperts(gathered) / ep;
        return fusedMoe.timeUs(gathered, experts / ep, Math.min(gathered * expertsPerToken,
                tokensPerRank * expertsPerToken * load), touched);
    }

    @Override
    public double streamUs(double bytes) {
        return bytes * usPerByte;
    }

    @Override
    public ModelArchitecture architecture() {
        return model;
    }

    /** The step's all-reduces: two per layer of {@code tokens} x hidden x dtype bytes (0 at TP 1). */
    double allReduceUs(long tokens) {
        return allReduce == null ? 0 : allReducesPerStep * allReduce.timeUs(tokens * allReduceBytesPerToken);
    }

    /**
     * All layers' attention: each prefill chunk of n new tokens over c cached ones computes
     * n x c + n(n+1)/2 causal (query, key) pairs and reads c + n tokens of KV; each decode token reads
     * its c + 1 tokens of KV (paged, memory-bound). Compute and memory are taken as a roofline over the
     * prefill chunks together and over the decodes together.
     *
     * <p>A decode that rides in a mixed step (any prefill chunk beside it) costs more: vLLM's FlashAttention
     * backend runs the whole batch as one varlen kernel ({@code vllm/v1/attention/backends/flash_attn.py}),
     * and FlashAttention-2 packs a query group's heads into one tile and splits the KV across SMs only when
     * every query is one token ({@code mha_varlen_fwd} in {@code csrc/flash_attn/flash_api.cpp}: "Only apply
     * split-k for decoding"). Beside a prefill each query head of each decode walks its whole KV in one
     * thread block of {@link #FLASH_ATTENTION_TILE_ROWS}-row tiles, one row used. On GPUs where vLLM runs
     * FlashAttention-2 ({@link AttentionBackend}) the blocks are priced as an SM runs them, in cycles at the boost
     * clock over all SMs, against the KV reads at the attention efficiency, whichever is longer:
     * <pre>
     * tiles_us = decode KV tokens x 64 x the FLOPs of one (query, key) pair / datasheet tensor peak
     *          + layers x query heads x (KV tokens x perKvToken + decodes x perTile
     *                                     + decodes x (ceil(longest query / 64) - 1) x perIdleTile) / (SMs x MHz)
     * decode_us = max(tiles_us, decode KV tokens x KV bytes / (bandwidth x attention efficiency))
     * </pre>
     * with {@link RooflineConstants.FlashAttention2}'s cross-GPU cycles: each iteration's softmax and paged loads after
     * its MMAs, a block's start and store, and the grid's blocks for a decode's rows past its one query, sized by the
     * step's longest query (the prefill chunk), which return at once. FlashAttention-3 (Hopper) has no such rows: its
     * varlen scheduler sizes each sequence's row blocks by its own query length ({@code prepare_varlen_num_blocks},
     * {@code hopper/flash_prepare_scheduler.cu}), packs a KV head's query heads into one tile
     * ({@link #flashAttention3RowsPerDecode}) and overlaps its loads with its MMAs (warp-specialised producer and
     * consumers, {@code hopper/mainloop_fwd_sm90_tma_gmma_ws.hpp}); a decode there costs the longer of its tiles' MMAs
     * at the tensor efficiency and its KV reads, beside a prefill or not. On the other GPUs (FlashInfer on Blackwell
     * data-center GPUs), and for multi-head latent attention, a mixed step's 64-row tile MMAs at the tensor efficiency
     * come on top of the KV reads.
     *
     * <p>Speculative decoding's verify pass ({@link StepShape#addVerify}): a sequence verifying d drafts has 1 + d
     * queries, (1 + d) x c + (1 + d)(2 + d) / 2 causal pairs over its c + 1 + d keys, read once; its FLOPs grow with the
     * queries, its KV reads by the drafts' d tokens only. (The LM head runs over every verified position,
     * {@link StepShape#logitRows()}.)
     */
    double attentionUs(StepShape step) {
        double prefillPairs = 0;
        for (int i = 0; i < step.prefillSeqs(); i++) {
            double n = step.prefillNewTokens(i);
            prefillPairs += n * step.prefillContextTokens(i) + n * (n + 1) / 2;
        }
        double prefillUs = Math.max(prefillPairs * usPerAttentionPair,
                (step.prefillContextTokens() + step.prefillTokens()) * usPerKvToken);
        double decodeKv = step.decodeContextTokens() + step.decodeSeqs();
        double decodePairs = decodeKv + step.draftPairs();
        decodeKv += step.draftTokens();
        double decodeUs = flashAttention3RowsPerDecode > 0
                ? Math.max(Math.max(decodePairs, (decodeKv - step.draftTokens()) * flashAttention3RowsPerDecode) * usPerAttentionPair,
                        decodeKv * usPerKvToken)
                : step.prefillSeqs() == 0 ? Math.max(decodePairs * usPerAttentionPair, decodeKv * usPerKvToken)
                : flashAttention2 ? Math.max(flashAttention2TilesUs(step, decodeKv), decodeKv * usPerKvToken)
                : decodeKv * (FLASH_ATTENTION_TILE_ROWS * usPerAttentionPair + usPerKvToken);
        return prefillUs + decodeUs;
    }

    /**
     * FlashAttention-3's query rows per query head of a decode: a varlen batch always packs a KV head's query heads into
     * one tile ({@code should_pack_gqa}: "if (varlen_q) return true", {@code hopper/heuristics.h}) of {@code kBlockM}
     * rows, 192 for a head dimension up to 96 and 128 above ({@code tile_size_fwd_sm90}, {@code hopper/tile_size.h},
     * Dao-AILab/flash-attention), so a decode's one query per head fills {@code qPerKv} of them.
     */
    static double flashAttention3RowsPerDecode(int queryHeadsPerRank, int kvHeadsPerRank, int headDim) {
        int qPerKv = Math.max(1, queryHeadsPerRank / kvHeadsPerRank);
        int blockM = headDim <= 96 ? 192 : 128;
        return (double) blockM * Math.ceil((double) qPerKv / blockM) / qPerKv;
    }

    /** FlashAttention-2's query tiles of a mixed step's decodes over {@code decodeKv} KV tokens (see {@link #attentionUs}). */
    private double flashAttention2TilesUs(StepShape step, double decodeKv) {
        int longestQuery = 1;
        for (int i = 0; i < step.prefillSeqs(); i++) {
            longestQuery = Math.max(longestQuery, step.prefillNewTokens(i));
        }
        RooflineConstants.FlashAttention2 cycles = constants.flashAttention2();
        double decodes = step.decodeSeqs();
        double idleTiles = decodes * (Math.ceil((double) longestQuery / FLASH_ATTENTION_TILE_ROWS) - 1);
        return decodeKv * FLASH_ATTENTION_TILE_ROWS * usPerAttentionPair * constants.tensorEfficiency()
                + usPerTileCycle * (decodeKv * cycles.perKvToken() + decodes * cycles.perTile() + idleTiles * cycles.perIdleTile());
    }

    /**
     * One decoder layer's attention block for {@code step}: {@link #attentionUs} over the layers plus its
     * {@link #ATTENTION_KERNELS} kernels' fixed cost, the time a per-layer attention profile measures (LLMServingSim's
     * {@code attention.csv}).
     */
    public double attentionLayerUs(StepShape step) {
        return attentionUs(step) / layers + ATTENTION_KERNELS * constants.kernelLaunchUs();
    }

    /** Expected distinct routed experts per MoE layer touched by {@code tokens} tokens (0 for dense models). */
    double touchedExperts(long tokens) {
        return model.feedForward().expectedActiveExperts(tokens);
    }
}
