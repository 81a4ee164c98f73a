package io.servesim.latency;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The few constants of {@link RooflineModel} that hold across GPUs, fitted once on measurements of
 * several GPUs and bundled as {@code io/servesim/latency/roofline_constants.yaml} (which records the
 * fit's data, loss and command). No constant belongs to one GPU: a GPU enters the model only through
 * its datasheet row ({@link GpuSpec}).
 *
 * @param tensorEfficiency    share of the datasheet's dense tensor peak that a full wave of GEMM tiles
 *                            (and FlashAttention's matmuls) achieves, in (0, 1]
 * @param memoryEfficiency    share of the datasheet's memory bandwidth that weight and activation traffic
 *                            achieves, in (0, 1]
 * @param attentionEfficiency share of the datasheet's memory bandwidth that the paged attention kernel's KV-cache
 *                            reads achieve, in (0, 1]: a decode walks each sequence's 16-token blocks through a block
 *                            table, a slower stream than a GEMM's contiguous weights (fitted on the decode rows of
 *                            LLMServingSim's per-layer attention profiles, {@link RooflineModel#attentionLayerUs})
 * @param kernelLaunchUs      fixed cost of every GPU kernel (launch, ramp-up and tail), microseconds: a
 *                            GEMM costs at least this, and each decoder layer runs
 *                            {@link RooflineModel#OTHER_KERNELS_PER_LAYER} kernels besides its GEMMs
 * @param stepOverheadUs      CPU time of every engine step not hidden behind the GPU (vLLM's
 *                            scheduler and input preparation), microseconds
 * @param perSequenceUs       CPU time per sequence in the batch (vLLM's per-request input preparation
 *                            and sampling bookkeeping), microseconds
 * @param flashAttention2     SM cycles of FlashAttention-2's query tiles beyond their MMAs, for the decodes of a mixed
 *                            step ({@link RooflineModel#attentionLayerUs}; fitted on the mixed rows of LLMServingSim's
 *                            attention profiles)
 * @param provenance          how the constants were obtained (shown in descriptions)
 * @param fittedOn            canonical names of the GPUs whose GEMM kernels or engine steps the constants were
 *                            fitted on: on any other GPU (one measured by its attention kernel alone included) the
 *                            model is uncalibrated ({@link RooflineModel#calibrationNote()})
 */
public record RooflineConstants(double tensorEfficiency, double memoryEfficiency, double attentionEfficiency,
                                double kernelLaunchUs, double stepOverheadUs, double perSequenceUs,
                                FlashAttention2 flashAttention2, String provenance, List<String> fittedOn) {
    private static final RooflineConstants BUNDLED = load();

    /** Constants fitted on no GPU's measurements (candidates during a fit, hand-set values in tests). */
    public RooflineConstants(double tensorEfficiency, double memoryEfficiency, double attentionEfficiency, double kernelLaunchUs,
                             double stepOverheadUs, double perSequenceUs, FlashAttention2 flashAttention2, String provenance) {
        this(tensorEfficiency, memoryEfficiency, attentionEfficiency, kernelLaunchUs, stepOverheadUs, perSequenceUs,
                flashAttention2, provenance, List.of());
    }

    /** Hand-set constants whose FlashAttention-2 tiles cost their MMAs alone ({@link FlashAttention2#NONE}). */
    public RooflineConstants(double tensorEfficiency, double memoryEfficiency, double attentionEfficiency, double kernelLaunchUs,
                             double stepOverheadUs, double perSequenceUs, String provenance) {
        this(tensorEfficiency, memoryEfficiency, attentionEfficiency, kernelLaunchUs, stepOverheadUs, perSequenceUs,
                FlashAttention2.NONE, provenance);
    }

    public RooflineConstants {
        fittedOn = List.copyOf(fittedOn);
        if (!(tensorEfficiency > 0 && tensorEfficiency <= 1 && memoryEfficiency > 0 && memoryEfficiency <= 1
                && attentionEfficiency > 0 && attentionEfficiency <= 1 && kernelLaunchUs >= 0 && stepOverheadUs >= 0 && perSequenceUs >= 0)
                || flashAttention2 == null) {
            throw new IllegalArgumentException("roofline constants: efficiencies must be in (0, 1] and overheads >= 0");
        }
    }

    /**
     * FlashAttention-2's cost, in SM cycles, of a decode's query tiles in a mixed step beyond their MMAs (which run at the
     * tensor cores' datasheet rate): one thread block per (decode, query head) walks the decode's KV in 64-token
     * iterations, and each iteration's softmax and paged loads follow its MMAs in the same warps (FlashAttention-3,
     * Shah et al. 2024, section 3.1: FlashAttention-2 does not overlap the softmax with the matmuls); the grid also holds
     * a block per further 64 rows of the step's longest query for every decode and head, which exits at once
     * ({@code mha_varlen_fwd}, {@code flash_fwd_kernel.h}: {@code if (m_block * kBlockM >= binfo.actual_seqlen_q) return}).
     *
     * @param perKvToken  cycles per KV token of a (decode, query head) block beyond its MMAs
     * @param perTile     cycles per (decode, query head) block: its start, its query tile's load and its output's store
     * @param perIdleTile cycles per block that exits at once (a decode's row blocks past its one query)
     */
    public record FlashAttention2(double perKvToken, double perTile, double perIdleTile) {
        /** No cycles beyond the MMAs. */
        public static final FlashAttention2 NONE = new FlashAttention2(0, 0, 0);

        public FlashAttention2 {
            if (!(perKvToken >= 0 && perTile >= 0 && perIdleTile >= 0)) {
                throw new IllegalArgumentException("FlashAttention-2 cycles must be >= 0");
            }
        }
    }

    /** The constants bundled with servesim (fitted on every shipped measurement). */
    public static RooflineConstants bundled() {
        return BUNDLED;
    }

    /** The numbers, for logs and tables. */
    public String describe() {
        return String.format(Locale.ROOT, "tensor %.3f, memory %.3f, attention KV %.3f of peak, %.2f us/kernel; FlashAttention-2"
                + " tiles %.1f cycles/KV token + %.0f/tile + %.0f/idle tile; %.0f us/step + %.1f us/sequence", tensorEfficiency,
                memoryEfficiency, attentionEfficiency, kernelLaunchUs, flashAttention2.perKvToken(), flashAttention2.perTile(),
                flashAttention2.perIdleTile(), stepOverheadUs, perSequenceUs);
    }

    /** These constants as the YAML of {@code roofline_constants.yaml}, with {@code header} as leading comment lines. */
    public String toYaml(String header) {
        StringBuilder b = new StringBuilder();
        for (String line : header.split("\n", -1)) {
            b.append(line.isEmpty() ? "#" : "# " + line).append('\n');
        }
        b.append(String.format(Locale.ROOT, "tensor_efficiency: %.4f%nmemory_efficiency: %.4f%nattention_efficiency: %.4f%n"
                        + "kernel_launch_us: %.3f%nfa2_cycles_per_kv_token: %.2f%nfa2_cycles_per_tile: %.0f%n"
                        + "fa2_cycles_per_idle_tile: %.0f%nstep_overhead_us: %.1f%nper_sequence_us: %.3f%nfitted_on: [%s]%n"
                        + "provenance: \"%s\"%n", tensorEfficiency, memoryEfficiency, attentionEfficiency, kernelLaunchUs,
                flashAttention2.perKvToken(), flashAttention2.perTile(), flashAttention2.perIdleTile(),
                stepOverheadUs, perSequenceUs, String.join(", ", fittedOn), provenance.replace("\"", "'")));
        return b.toString();
    }

    private static RooflineConstants load() {
        JsonNode n = Resources.yaml("roofline_constants.yaml");
        String where = "roofline_constants.yaml";
        List<String> fittedOn = new ArrayList<>();
        n.path("fitted_on").forEach(g -> fittedOn.add(g.asText()));
        if (fittedOn.isEmpty()) {
            throw new IllegalStateException(where + ": missing 'fitted_on'");
        }
        return new RooflineConstants(Resources.number(n, "tensor_efficiency", where),
                Resources.number(n, "memory_efficiency", where), Resources.number(n, "attention_efficiency", where),
                Resources.number(n, "kernel_launch_us", where),
                Resources.number(n, "step_overhead_us", where), Resources.number(n, "per_sequence_us", where),
                new FlashAttention2(Resources.number(n, "fa2_cycles_per_kv_token", where),
                        Resources.number(n, "fa2_cycles_per_tile", where), Resources.number(n, "fa2_cycles_per_idle_tile", where)),
                Resources.text(n, "provenance", where), fittedOn);
    }
}
