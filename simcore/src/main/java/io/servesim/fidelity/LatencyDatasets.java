package io.servesim.fidelity;

import io.servesim.config.ConfigException;
import io.servesim.latency.CoefficientTable;
import io.servesim.latency.GpuCatalog;
import io.servesim.latency.GpuSpec;
import io.servesim.latency.LatencyModel;
import io.servesim.latency.LatencyModels;
import io.servesim.latency.LatencySpec;
import io.servesim.latency.ModelArchitecture;
import io.servesim.latency.ModelCatalog;
import io.servesim.latency.StepShape;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The real measurements the roofline's cross-GPU constants are fitted and validated on, read from the
 * shared data directory (its {@code PROVENANCE.md} names every file's source):
 * <ul>
 *   <li>{@code hardware/blackbox_coefficients.yaml} (bundled verbatim as {@link CoefficientTable}): BLIS's
 *       step-time fits of real vLLM runs, H100 and A100, for every entry whose model is bundled, evaluated on
 *       a grid inside their training workloads' range: a prefill chunk of {@link #BLACKBOX_PREFILL_TOKENS}
 *       with {@link #BLACKBOX_DECODES} decodes at {@link #BLACKBOX_DECODE_CONTEXT} tokens of context;</li>
 *   <li>{@code profiling/splitwise_a100_h100/perf_model.csv} (Splitwise, ISCA'24): Llama-2-70B prompt
 *       times (a batch of b prompts of p tokens in one step) and token times (b decodes at the mean context
 *       p + t/2 of a t-token generation), A100 and H100, TP 2/4/8, the median of repeated rows; batches
 *       above {@link #MAX_SPLITWISE_TOKENS} tokens are left out (vLLM never schedules such steps);</li>
 *   <li>{@code profiling/vidur_h100_llama2_7b/mlp.csv} (microsoft/vidur): H100 kernel times of Llama-2-7B's
 *       four GEMMs at TP 1/2/4/8 by token count (median columns);</li>
 *   <li>{@code profiling/llmservingsim_rtxpro6000_llama31_8b_tp1/} (casys-kaist/LLMServingSim): RTX PRO 6000
 *       kernel times of Llama-3.1-8B's four GEMMs by token count and of its LM head by sequence count, and
 *       whole steps priced by the bundled profiled model over {@link #profileSteps()} (sums of GPU kernels:
 *       no CPU time);</li>
 *   <li>the GEMM rows of the other RTX PRO 6000 profiles ({@link #GEMM_PROFILES}: Qwen3-32B and Qwen3-30B-A3B at TP 1
 *       and 2): QKV, O, gate/up and down projections by token count and the LM head by sequence count, each at its
 *       shape on one rank of the TP group, one data set per model, TP and GEMM;</li>
 *   <li>the decode rows of every shipped LLMServingSim {@code attention.csv} ({@link #ATTENTION_PROFILES}: RTX PRO
 *       6000 Llama-3.1-8B, Qwen3-32B and Qwen3-30B-A3B at TP 1 and 2, RTX 4090 Llama-3.1-8B, whose GEMM rows are not
 *       read: they run at about the card's whole datasheet BF16 peak, unlike every other GPU's): one layer's attention
 *       kernel over {@code n_decode} sequences of {@code kv_decode} tokens of context, the measurements of the paged
 *       attention kernel's KV reads; and their mixed rows, a prefill chunk without cached context beside 8 or more
 *       decodes ({@link #MIN_MIXED_DECODES}), the measurements of FlashAttention-2's query tiles (prefill rows alone are
 *       left out: FlashAttention's matmuls are the GEMMs' tensor efficiency).</li>
 * </ul>
 * Bloom-176B rows of the Splitwise file are not used: its GELU MLP is not the SwiGLU the architecture
 * model counts.
 */
public final class LatencyDatasets {
    static final int[] BLACKBOX_PREFILL_TOKENS = {0, 256, 1024, 2048};
    static final int[] BLACKBOX_DECODES = {0, 16, 64, 128};
    static final int BLACKBOX_DECODE_CONTEXT = 512;
    static final long MAX_SPLITWISE_TOKENS = 16384;
    /** Fewest decodes of a mixed attention row read: below, the chunk's own attention outweighs the decodes' tiles. */
    static final int MIN_MIXED_DECODES = 8;
    private static final String QWEN3_MOE_PROFILE = "llmservingsim_rtxpro6000_qwen3_30b_a3b_instruct_2507";
    /** The LLMServingSim attention profiles read: folder under {@code profiling/}, GPU, model id, TP. */
    static final List<String[]> ATTENTION_PROFILES = List.of(
            new String[] {"llmservingsim_rtxpro6000_llama31_8b_tp1", "RTXPRO6000", "meta-llama/llama-3.1-8b", "1"},
            new String[] {"llmservingsim_rtxpro6000_qwen3_32b/tp1", "RTXPRO6000", "qwen/qwen3-32b", "1"},
            new String[] {"llmservingsim_rtxpro6000_qwen3_32b/tp2", "RTXPRO6000", "qwen/qwen3-32b", "2"},
            new String[] {QWEN3_MOE_PROFILE + "/tp1", "RTXPRO6000", "qwen/qwen3-30b-a3b-instruct-2507", "1"},
            new String[] {QWEN3_MOE_PROFILE + "/tp2", "RTXPRO6000", "qwen/qwen3-30b-a3b-instruct-2507", "2"},
            new String[] {"llmservingsim_rtx4090_llama31_8b/tp1", "RTX4090", "meta-llama/llama-3.1-8b", "1"});

    /** LLMServingSim profiles whose GEMM rows are read besides Llama-3.1-8B's: folder, GPU, model id, TP. */
    static final List<String[]> GEMM_PROFILES = List.of(
            new String[] {"llmservingsim_rtxpro6000_qwen3_32b/tp1", "RTXPRO6000", "qwen/qwen3-32b", "1"},
            new String[] {"llmservingsim_rtxpro6000_qwen3_32b/tp2", "RTXPRO6000", "qwen/qwen3-32b", "2"},
            new String[] {QWEN3_MOE_PROFILE + "/tp1", "RTXPRO6000", "qwen/qwen3-30b-a3b-instruct-2507", "1"},
            new String[] {QWEN3_MOE_PROFILE + "/tp2", "RTXPRO6000", "qwen/qwen3-30b-a3b-instruct-2507", "2"});

    private LatencyDatasets() {
    }

    /** The GEMM rows (QKV, O, gate/up, down, LM head) of a profile of {@code modelId} at {@code tp}, shaped per rank. */
    static List<LatencyObservation> gemms(Path dir, String gpuName, String modelId, int tp) {
        GpuSpec gpu = GpuCatalog.builtIn().lookup(gpuName, "llmservingsim");
        ModelArchitecture arch = ModelCatalog.builtIn().lookup(modelId, "llmservingsim");
        ModelArchitecture.Attention a = arch.attention();
        int h = arch.hiddenSize();
        int inter = arch.feedForward().denseIntermediateSize() / tp;
        Map<String, int[]> shapes = new HashMap<>();
        shapes.put("qkv_proj", new int[] {(a.heads() / tp + 2 * Math.max(1, a.kvHeads() / tp)) * a.headDim(), h});
        shapes.put("o_proj", new int[] {h, a.heads() / tp * a.vHeadDim()});
        if (inter > 0) {
            shapes.put("gate_up_proj", new int[] {2 * inter, h});
            shapes.put("down_proj", new int[] {h, inter});
        }
        shapes.put("lm_head", new int[] {(int) Math.ceil((double) arch.vocabSize() / tp), h});
        return kernels(dir, gpu, "llmservingsim " + modelId + " TP" + tp + " ", shapes);
    }

    /**
     * The rows of a profile's {@code dense.csv} and {@code per_sequence.csv} (layer, tokens, time_us) whose layer
     * {@code shapes} names, each a GEMM of that (N, K) at the row's tokens; sources {@code sourcePrefix} + the layer.
     */
    private static List<LatencyObservation> kernels(Path dir, GpuSpec gpu, String sourcePrefix, Map<String, int[]> shapes) {
        List<LatencyObservation> out = new ArrayList<>();
        for (String file : new String[] {"dense.csv", "per_sequence.csv"}) {
            List<String[]> rows = rows(dir.resolve(file));
            for (String[] r : rows.subList(1, rows.size())) {
                int[] nk = shapes.get(r[0]);
                if (nk != null) {
                    out.add(new LatencyObservation.Kernel(sourcePrefix + r[0], gpu, Integer.parseInt(r[1]), nk[0], nk[1],
                            Double.parseDouble(r[2])));
                }
            }
        }
        return out;
    }

    /** Every observation under {@code dataDir}, in a fixed order. */
    public static List<LatencyObservation> read(Path dataDir) {
        if (!Files.isDirectory(dataDir)) {
            throw new ConfigException("--data", "not a directory: " + dataDir + " (the shared data: PROVENANCE.md, profiling/, ...)");
        }
        requireLayout(dataDir);
        List<LatencyObservation> out = new ArrayList<>();
        out.addAll(blackbox());
        out.addAll(splitwise(dataDir.resolve("profiling/splitwise_a100_h100/perf_model.csv")));
        out.addAll(vidur(dataDir.resolve("profiling/vidur_h100_llama2_7b/mlp.csv")));
        out.addAll(llmServingSim(dataDir.resolve("profiling/llmservingsim_rtxpro6000_llama31_8b_tp1"), "RTXPRO6000"));
        for (String[] p : GEMM_PROFILES) {
            out.addAll(gemms(dataDir.resolve("profiling").resolve(p[0]), p[1], p[2], Integer.parseInt(p[3])));
        }
        out.addAll(profileSteps());
        for (String[] p : ATTENTION_PROFILES) {
            out.addAll(attention(dataDir.resolve("profiling").resolve(p[0]).resolve("attention.csv"), p[1], p[2],
                    Integer.parseInt(p[3])));
        }
        return out;
    }

    /**
     * Refuses a {@code --data} folder that lacks any file the fit reads, naming every missing one, before anything is
     * read: a folder other than the shipped data (or a copy of it) is a bad argument, not a failed read.
     */
    private static void requireLayout(Path dataDir) {
        List<String> needed = new ArrayList<>(List.of("profiling/splitwise_a100_h100/perf_model.csv",
                "profiling/vidur_h100_llama2_7b/mlp.csv", "profiling/llmservingsim_rtxpro6000_llama31_8b_tp1"));
        GEMM_PROFILES.forEach(p -> needed.add("profiling/" + p[0]));
        ATTENTION_PROFILES.forEach(p -> needed.add("profiling/" + p[0] + "/attention.csv"));
        List<String> missing = needed.stream().distinct().filter(f -> !Files.exists(dataDir.resolve(f))).toList();
        if (!missing.isEmpty()) {
            String shown = String.join(", ", missing.subList(0, Math.min(3, missing.size())));
            throw new ConfigException("--data", dataDir + " is not the shipped measurement data (sweeps/data or a copy of it):"
                    + " missing " + shown + (missing.size() > 3 ? " and " + (missing.size() - 3) + " more" : ""));
        }
    }

    static List<LatencyObservation> blackbox() {
        List<LatencyObservation> out = new ArrayList<>();
        for (CoefficientTable.Entry e : CoefficientTable.builtIn().entries()) {
            var found = ModelCatalog.builtIn().find(e.modelId());
            if (found.isEmpty() || e.modelId().contains("fp8") != found.get().id().contains("fp8")) {
                continue;
            }
            ModelArchitecture arch = ModelCatalog.builtIn().architecture(found.get(), "blackbox");
            if (arch.attention().heads() % e.tp() != 0) {
                continue;
            }
            GpuSpec gpu = GpuCatalog.builtIn().lookup(e.gpu(), "blackbox");
            String source = "blackbox " + e.modelId() + " TP" + e.tp();
            for (int p : BLACKBOX_PREFILL_TOKENS) {
                for (int d : BLACKBOX_DECODES) {
                    if (p + d == 0) {
                        continue;
                    }
                    StepShape s = new StepShape();
                    if (p > 0) {
                        s.addPrefill(p, 0);
                    }
                    for (int i = 0; i < d; i++) {
                        s.addDecode(BLACKBOX_DECODE_CONTEXT);
                    }
                    double us = e.coefficients().b0() + e.coefficients().b1() * p + e.coefficients().b2() * d;
                    out.add(new LatencyObservation.Step(source, arch, gpu, e.tp(), s, us, true));
                }
            }
        }
        return out;
    }

    static List<LatencyObservation> splitwise(Path csv) {
        ModelArchitecture l31 = ModelCatalog.builtIn().lookup("meta-llama/llama-3.1-70b-instruct", "splitwise");
        // Llama-2-70b-hf config.json: the same 80 layers, 8192 hidden, 64 heads, 8 KV heads and 28672 MLP as
        // Llama-3.1-70B, with a 32,000-token vocabulary.
        ModelArchitecture llama2 = new ModelArchitecture("meta-llama/llama-2-70b-hf", l31.modelType(), l31.layers(),
                l31.hiddenSize(), 32000, false, l31.contextLength(), l31.dtypeBytes(), l31.kvDtypeBytes(), l31.weightBytesPerParam(),
                l31.attention(), l31.feedForward());
        Map<String, List<double[]>> prompt = new TreeMap<>();
        Map<String, List<double[]>> token = new TreeMap<>();
        List<String[]> rows = rows(csv);
        String[] h = rows.get(0);
        int cModel = col(h, "model"), cHw = col(h, "hardware"), cP = col(h, "prompt_size"), cB = col(h, "batch_size"),
                cT = col(h, "token_size"), cPt = col(h, "prompt_time"), cTt = col(h, "token_time"), cTp = col(h, "tensor_parallel");
        for (String[] r : rows.subList(1, rows.size())) {
            String gpu = switch (r[cHw]) {
                case "a100-80gb" -> "A100-80GB";
                case "h100-80gb" -> "H100";
                default -> null;
            };
            if (gpu == null || !r[cModel].equals("llama2-70b")) {
                continue;
            }
            String key = gpu + "|" + r[cTp] + "|" + r[cP] + "|" + r[cB] + "|" + r[cT];
            prompt.computeIfAbsent(key, k -> new ArrayList<>()).add(new double[] {Double.parseDouble(r[cPt])});
            token.computeIfAbsent(key, k -> new ArrayList<>()).add(new double[] {Double.parseDouble(r[cTt])});
        }
        List<LatencyObservation> out = new ArrayList<>();
        for (String key : prompt.keySet()) {
            String[] k = key.split("\\|");
            GpuSpec gpu = GpuCatalog.builtIn().lookup(k[0], "splitwise");
            int tp = Integer.parseInt(k[1]);
            int p = Integer.parseInt(k[2]);
            int b = Integer.parseInt(k[3]);
            int t = Integer.parseInt(k[4]);
            String source = "splitwise llama2-70b TP" + tp;
            if ((long) p * b <= MAX_SPLITWISE_TOKENS) {
                StepShape s = new StepShape();
                for (int i = 0; i < b; i++) {
                    s.addPrefill(p, 0);
                }
                out.add(new LatencyObservation.Step(source, llama2, gpu, tp, s, 1000 * median(prompt.get(key)), true));
            }
            StepShape d = new StepShape();
            for (int i = 0; i < b; i++) {
                d.addDecode(p + t / 2);
            }
            out.add(new LatencyObservation.Step(source, llama2, gpu, tp, d, 1000 * median(token.get(key)), true));
        }
        return dedupe(out);
    }

    static List<LatencyObservation> vidur(Path csv) {
        GpuSpec h100 = GpuCatalog.builtIn().lookup("H100", "vidur");
        List<String[]> rows = rows(csv);
        String[] h = rows.get(0);
        int cTokens = col(h, "num_tokens"), cTp = col(h, "num_tensor_parallel_workers"), cHidden = col(h, "n_embd"),
                cMlp = col(h, "n_expanded_embd"), cHeads = col(h, "n_head"), cKv = col(h, "n_kv_head");
        int cPre = col(h, "time_stats.attn_pre_proj.median"), cPost = col(h, "time_stats.attn_post_proj.median"),
                cUp = col(h, "time_stats.mlp_up_proj.median"), cDown = col(h, "time_stats.mlp_down_proj.median");
        List<LatencyObservation> out = new ArrayList<>();
        for (String[] r : rows.subList(1, rows.size())) {
            int m = Integer.parseInt(r[cTokens]);
            int tp = Integer.parseInt(r[cTp]);
            int hidden = Integer.parseInt(r[cHidden]);
            int mlp = Integer.parseInt(r[cMlp]);
            int headDim = hidden / Integer.parseInt(r[cHeads]);
            int qkv = (Integer.parseInt(r[cHeads]) + 2 * Integer.parseInt(r[cKv])) * headDim / tp;
            String source = "vidur llama-2-7b TP" + tp;
            out.add(new LatencyObservation.Kernel(source, h100, m, qkv, hidden, 1000 * Double.parseDouble(r[cPre])));
            out.add(new LatencyObservation.Kernel(source, h100, m, hidden, hidden / tp, 1000 * Double.parseDouble(r[cPost])));
            out.add(new LatencyObservation.Kernel(source, h100, m, 2 * mlp / tp, hidden, 1000 * Double.parseDouble(r[cUp])));
            out.add(new LatencyObservation.Kernel(source, h100, m, hidden, mlp / tp, 1000 * Double.parseDouble(r[cDown])));
        }
        return out;
    }

    /** A Llama-3.1-8B profile's GEMM kernels on {@code gpuName} (TP1: hidden 4096, 32/8 heads of 128, MLP 14336, vocab 128256). */
    static List<LatencyObservation> llmServingSim(Path dir, String gpuName) {
        GpuSpec gpu = GpuCatalog.builtIn().lookup(gpuName, "llmservingsim");
        Map<String, int[]> shapes = Map.of("qkv_proj", new int[] {6144, 4096}, "o_proj", new int[] {4096, 4096},
                "gate_up_proj", new int[] {28672, 4096}, "down_proj", new int[] {4096, 14336}, "lm_head", new int[] {128256, 4096});
        return kernels(dir, gpu, "llmservingsim llama-3.1-8b ", shapes);
    }

    /**
     * The decode rows ({@code prefill_chunk} 0, {@code n_decode} above 0) of an LLMServingSim {@code attention.csv} of
     * {@code modelId} at {@code tp} on {@code gpuName}: one layer's attention over {@code n_decode} sequences of
     * {@code kv_decode} tokens each; and its mixed rows (a {@code prefill_chunk} without cached context,
     * {@code kv_prefill} 0, beside at least {@link #MIN_MIXED_DECODES} such decodes), a data set of their own.
     */
    static List<LatencyObservation> attention(Path csv, String gpuName, String modelId, int tp) {
        GpuSpec gpu = GpuCatalog.builtIn().lookup(gpuName, "llmservingsim");
        ModelArchitecture arch = ModelCatalog.builtIn().lookup(modelId, "llmservingsim");
        List<String[]> rows = rows(csv);
        String[] h = rows.get(0);
        int cChunk = col(h, "prefill_chunk"), cChunkKv = col(h, "kv_prefill"), cDecodes = col(h, "n_decode");
        int cKv = col(h, "kv_decode"), cUs = col(h, "time_us");
        String source = "llmservingsim attention " + modelId + " TP" + tp;
        List<LatencyObservation> out = new ArrayList<>();
        for (String[] r : rows.subList(1, rows.size())) {
            int decodes = Integer.parseInt(r[cDecodes]);
            int chunk = Integer.parseInt(r[cChunk]);
            if (decodes == 0 || chunk > 0 && (decodes < MIN_MIXED_DECODES || Integer.parseInt(r[cChunkKv]) != 0)) {
                continue;
            }
            StepShape s = new StepShape();
            if (chunk > 0) {
                s.addPrefill(chunk, 0);
            }
            for (int i = 0; i < decodes; i++) {
                s.addDecode(Integer.parseInt(r[cKv]));
            }
            out.add(new LatencyObservation.Attention(chunk > 0 ? source + " mixed" : source, arch, gpu, tp, s,
                    Double.parseDouble(r[cUs])));
        }
        return out;
    }

    /**
     * Whole steps of Llama-3.1-8B on the RTX PRO 6000 priced by the bundled LLMServingSim profile (sums of
     * measured per-layer kernels): prefill chunks of 16-2048 tokens, 1-256 decodes at 256-4096 tokens of
     * context, and chunks of 512 and 2048 riding with 64 decodes at 1024.
     */
    static List<LatencyObservation> profileSteps() {
        LatencyModel profiled = LatencyModels.resolve(new LatencySpec("profiled", "meta-llama/llama-3.1-8b", "RTXPRO6000", 1, null),
                "profile").model();
        ModelArchitecture arch = ModelCatalog.builtIn().lookup("meta-llama/llama-3.1-8b", "profile");
        GpuSpec gpu = GpuCatalog.builtIn().lookup("RTXPRO6000", "profile");
        List<StepShape> steps = new ArrayList<>();
        for (int p : new int[] {16, 128, 512, 2048}) {
            StepShape s = new StepShape();
            s.addPrefill(p, 0);
            steps.add(s);
        }
        for (int d : new int[] {1, 16, 64, 128, 256}) {
            for (int context : new int[] {256, 1024, 4096}) {
                StepShape s = new StepShape();
                for (int i = 0; i < d; i++) {
                    s.addDecode(context);
                }
                steps.add(s);
            }
        }
        for (int p : new int[] {512, 2048}) {
            StepShape s = new StepShape();
            s.addPrefill(p, 0);
            for (int i = 0; i < 64; i++) {
                s.addDecode(1024);
            }
            steps.add(s);
        }
        List<LatencyObservation> out = new ArrayList<>();
        for (StepShape s : steps) {
            out.add(new LatencyObservation.Step("llmservingsim profile steps", arch, gpu, 1, s, profiled.stepTimeUs(s), false));
        }
        return out;
    }

    /** Splitwise repeats one prompt row per token size; keep each distinct prompt step once. */
    private static List<LatencyObservation> dedupe(List<LatencyObservation> in) {
        List<LatencyObservation> out = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (LatencyObservation o : in) {
            LatencyObservation.Step s = (LatencyObservation.Step) o;
            String key = s.gpu().name() + s.tp() + "|" + s.step().prefillSeqs() + "|" + s.step().prefillTokens() + "|"
                    + s.step().decodeSeqs() + "|" + s.step().decodeContextTokens();
            if (seen.add(key)) {
                out.add(o);
            }
        }
        return out;
    }

    private static double median(List<double[]> values) {
        double[] v = values.stream().mapToDouble(x -> x[0]).sorted().toArray();
        return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    }

    private static int col(String[] header, String name) {
        int i = Arrays.asList(header).indexOf(name);
        if (i < 0) {
            throw new IllegalStateException("column " + name + " missing");
        }
        return i;
    }

    private static List<String[]> rows(Path csv) {
        try {
            return Files.readAllLines(csv).stream().filter(l -> !l.isBlank()).map(l -> l.split(",", -1)).toList();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + csv, e);
        }
    }
}
