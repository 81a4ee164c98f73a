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
 * @param provenance          how the constants were obtained (shown in descriptions)
 * @param fittedOn            canonical names of the GPUs whose GEMM kernels or engine steps the constants were
 *                            fitted on: on any other GPU (one measured by its attention kernel alone included) the
 *                            model is uncalibrated ({@link RooflineModel#calibrationNote()})
 */
public record RooflineConstants(double tensorEfficiency, double memoryEfficiency, double attentionEfficiency,
                                double kernelLaunchUs, double stepOverheadUs, double perSequenceUs, String provenance, List<String> fittedOn) {
    private static final RooflineConstants BUNDLED = load();

    /** Constants fitted on no GPU's measurements (candidates during a fit, hand-set values in tests). */
    public RooflineConstants(double tensorEfficiency, double memoryEfficiency, double attentionEfficiency, double kernelLaunchUs,
                             double stepOverheadUs, double perSequenceUs, String provenance) {
        this(tensorEfficiency, memoryEfficiency, attentionEfficiency, kernelLaunchUs, stepOverheadUs, perSequenceUs, provenance,
                List.of());
    }

    public RooflineConstants {
        fittedOn = List.copyOf(fittedOn);
        if (!(tensorEfficiency > 0 && tensorEfficiency <= 1 && memoryEfficiency > 0 && memoryEfficiency <= 1
                && attentionEfficiency > 0 && attentionEfficiency <= 1 && kernelLaunchUs >= 0 && stepOverheadUs >= 0 && perSequenceUs >= 0)) {
            throw new IllegalArgumentException("roofline constants: efficiencies must be in (0, 1] and overheads >= 0");
        }
    }

    /** The constants bundled with servesim (fitted on every shipped measurement). */
    public static RooflineConstants bundled() {
        return BUNDLED;
    }

    /** The six numbers, for logs and tables. */
    public String describe() {
        return String.format(Locale.ROOT, "tensor %.3f, memory %.3f, attention KV %.3f of peak, %.2f us/kernel; %.0f us/step"
                + " + %.1f us/sequence", tensorEfficiency, memoryEfficiency, attentionEfficiency, kernelLaunchUs, stepOverheadUs,
                perSequenceUs);
    }

    /** These constants as the YAML of {@code roofline_constants.yaml}, with {@code header} as leading comment lines. */
    public String toYaml(String header) {
        StringBuilder b = new StringBuilder();
        for (String line : header.split("\n", -1)) {
            b.append(line.isEmpty() ? "#" : "# " + line).append('\n');
        }
        b.append(String.format(Locale.ROOT, "tensor_efficiency: %.4f%nmemory_efficiency: %.4f%nattention_efficiency: %.4f%n"
                        + "kernel_launch_us: %.3f%nstep_overhead_us: %.1f%nper_sequence_us: %.3f%nfitted_on: [%s]%n"
                        + "provenance: \"%s\"%n", tensorEfficiency, memoryEfficiency, attentionEfficiency, kernelLaunchUs,
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
                Resources.text(n, "provenance", where), fittedOn);
    }
}
