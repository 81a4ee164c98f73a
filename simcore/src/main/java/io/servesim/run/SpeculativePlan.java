package io.servesim.run;

import io.servesim.config.ConfigException;
import io.servesim.engine.EngineConfig;
import io.servesim.engine.SpecDecodeConfig;
import io.servesim.latency.GpuSpec;
import io.servesim.latency.KvCapacity;
import io.servesim.latency.LatencyModel;
import io.servesim.latency.LatencyModels;
import io.servesim.latency.ModelArchitecture;
import io.servesim.latency.ModelCatalog;
import io.servesim.latency.ResolvedLatency;
import io.servesim.latency.RooflineModel;
import io.servesim.latency.SpeculativeLatency;
import java.util.List;
import java.util.Locale;

/**
 * An engine's speculative decoding resolved against its deployment: the latency model with the drafter priced
 * ({@link SpeculativeLatency}) and the drafter's GPU memory, which comes out of the target's KV cache as vLLM sizes it
 * (the draft model's weights are loaded before {@code determine_available_memory} profiles what is left, and its KV
 * layers share the target's block table, so every block holds both models' KV for its tokens:
 * {@code vllm/v1/worker/gpu_model_runner.py load_model}, {@code vllm/v1/core/kv_cache_utils.py}):
 * <ul>
 *   <li>{@code draft}: the draft model's weights (its config.json, one TP shard) and KV bytes per token;</li>
 *   <li>{@code eagle}, {@code mtp}: one decoder layer of the target (its share of the weights and of the KV per
 *       token);</li>
 *   <li>{@code ngram}: nothing.</li>
 * </ul>
 * A capacity given as {@code total_kv_blocks} is vLLM's {@code num_gpu_blocks} with the drafter loaded and stands; a
 * derived one (trained coefficients' measured blocks, or the GPU-memory estimate, both without a drafter) shrinks to
 * {@code floor((B x s x kv - W) / (s x (kv + kv_d)))} for B blocks of s tokens, the target's KV bytes per token kv, the
 * drafter's weights W and KV bytes per token kv_d.
 *
 * @param latency                  the target's latency with the drafter
 * @param weightBytesPerGpu        the drafter's weights per GPU
 * @param kvBytesPerTokenPerGpu    the drafter's KV bytes per token per GPU
 */
record SpeculativePlan(LatencyModel latency, double weightBytesPerGpu, long kvBytesPerTokenPerGpu) {
    /** An engine's latency model with its drafter, its KV blocks and where they came from. */
    record Sized(LatencyModel latency, int blocks, String source) {
    }

    /**
     * The speculating engine {@code e} on {@code resolved}: its latency model with the drafter, and its {@code blocks}
     * (from {@code source}, as the KV checks' messages say it: {@code phrase}) with the drafter's memory taken out unless
     * {@code total_kv_blocks} gave them; unchanged, with the problems added, when the drafter cannot be resolved.
     */
    static Sized size(EngineConfig e, ResolvedLatency resolved, int tp, int blocks, String source, String phrase,
                      FleetKeys keys, List<ConfigException.Problem> problems) {
        SpeculativePlan spec = resolve(e.speculative(), resolved, tp, keys, problems);
        if (spec == null) {
            return new Sized(resolved.model(), blocks, source);
        }
        if (e.totalKvBlocks() > 0 || source.isEmpty() || !spec.takesMemory()) {
            return new Sized(spec.latency(), blocks, source);
        }
        int left = spec.blocksWithDrafter(blocks, e.blockSizeTokens(), resolved.architectureOrNull().kvBytesPerTokenPerGpu(tp));
        if (left < 1) {
            problems.add(new ConfigException.Problem(keys.engine("speculative"), String.format(Locale.ROOT,
                    "the drafter's weights (%.2f GiB per GPU) leave no room for one KV block (%d blocks %s without it);"
                            + " raise tp or use a smaller draft model", spec.weightBytesPerGpu() / KvCapacity.GIB, blocks,
                    phrase)));
            return new Sized(spec.latency(), 1, source);
        }
        return new Sized(spec.latency(), left, left == blocks ? source : String.format(Locale.ROOT,
                "%s, less the drafter's weights and KV (%d of %d blocks left)", source, left, blocks));
    }

    /** The plan of {@code s} (enabled) on {@code resolved} at TP {@code tp}, or null with the problems added. */
    static SpeculativePlan resolve(SpecDecodeConfig s, ResolvedLatency resolved, int tp, FleetKeys keys,
                                   List<ConfigException.Problem> problems) {
        ModelArchitecture arch = resolved.architectureOrNull();
        LatencyModel target = resolved.model();
        String label = s.method().configName();
        switch (s.method()) {
            case NGRAM:
                return new SpeculativePlan(new SpeculativeLatency(target, SpeculativeLatency.Drafter.CPU_LOOKUP, s.k(), 0, null,
                        "ngram prompt lookup on the CPU (priced at zero)"), 0, 0);
            case EAGLE:
            case MTP:
                if (arch == null) {
                    problems.add(new ConfigException.Problem(keys.engine("speculative.method"), label + " needs the target's"
                            + " architecture (its decoder layer prices a draft pass and holds the drafter's KV): "
                            + keys.deployment() + ".model must be a bundled model or a config.json; valid without one: ngram"));
                    return null;
                }
                if (s.method() == SpecDecodeConfig.Method.MTP && arch.mtpLayers() == 0) {
                    // vLLM drafts with the checkpoint's own MTP layers (SpeculativeConfig reads num_nextn_predict_layers)
                    problems.add(new ConfigException.Problem(keys.engine("speculative.method"), "mtp needs the target's own"
                            + " multi-token-prediction layers, and " + arch.name() + " has none (its config.json has no"
                            + " num_nextn_predict_layers); valid for it: eagle, draft, ngram"));
                    return null;
                }
                return new SpeculativePlan(new SpeculativeLatency(target, SpeculativeLatency.Drafter.DECODER_LAYER, s.k(),
                        arch.layers(), null, label + " (one decoder layer of " + arch.name() + " and its LM head per draft"
                        + " token)"), arch.weightBytes() / arch.layers() / tp, arch.kvBytesPerTokenPerGpu(tp) / arch.layers());
            default:
                return draftModel(s, resolved, tp, keys, problems);
        }
    }

    private static SpeculativePlan draftModel(SpecDecodeConfig s, ResolvedLatency resolved, int tp, FleetKeys keys,
                                              List<ConfigException.Problem> problems) {
        String path = keys.engine("speculative.draft_model");
        ModelArchitecture draft;
        try {
            draft = LatencyModels.findArchitecture(s.draftModel(), path);
        } catch (ConfigException e) {
            problems.addAll(e.problems());
            return null;
        }
        if (draft == null) {
            problems.add(new ConfigException.Problem(path, "unknown model '" + s.draftModel() + "'; bundled: "
                    + String.join(", ", ModelCatalog.builtIn().ids()) + " (or give the path of a config.json)"));
            return null;
        }
        ModelArchitecture target = resolved.architectureOrNull();
        GpuSpec gpu = resolved.gpuOrNull();
        if (gpu == null || target == null) {
            problems.add(new ConfigException.Problem(path, "a draft model runs on the target's GPUs and shares its KV"
                    + " cache: " + keys.deployment() + ".hardware must be a known GPU and " + keys.deployment()
                    + ".model a bundled model or a config.json"));
            return null;
        }
        if (draft.vocabSize() != target.vocabSize()) {
            problems.add(new ConfigException.Problem(path, String.format(Locale.ROOT, "%s has a vocabulary of %d tokens,"
                    + " %s of %d: a draft model must share the target's vocabulary (vLLM refuses others)", draft.name(),
                    draft.vocabSize(), target.name(), target.vocabSize())));
            return null;
        }
        RooflineModel model;
        try {
            model = RooflineModel.sharded(draft, gpu, tp, keys.deployment() + ".tp");
        } catch (ConfigException e) {
            problems.addAll(e.problems());
            return null;
        }
        return new SpeculativePlan(new SpeculativeLatency(resolved.model(), SpeculativeLatency.Drafter.DRAFT_MODEL, s.k(),
                target.layers(), model, "draft model " + draft.name() + " (its roofline on " + gpu.name() + " x TP" + tp
                + ")"), draft.weightBytes() / tp, draft.kvBytesPerTokenPerGpu(tp));
    }

    /** Whether the drafter needs GPU memory (a draft model or a head; n-gram lookup does not). */
    boolean takesMemory() {
        return weightBytesPerGpu > 0 || kvBytesPerTokenPerGpu > 0;
    }

    /**
     * {@code blocks} of a derived capacity (KV bytes per token {@code targetKvBytesPerToken}, blocks of
     * {@code blockSizeTokens}) with the drafter's memory taken out; 0 when nothing is left.
     */
    int blocksWithDrafter(int blocks, int blockSizeTokens, long targetKvBytesPerToken) {
        double bytes = (double) blocks * blockSizeTokens * targetKvBytesPerToken - weightBytesPerGpu;
        double perBlock = (double) blockSizeTokens * (targetKvBytesPerToken + kvBytesPerTokenPerGpu);
        return bytes <= 0 ? 0 : (int) Math.floor(bytes / perBlock);
    }
}
