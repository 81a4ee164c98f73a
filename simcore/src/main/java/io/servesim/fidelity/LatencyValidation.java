package io.servesim.fidelity;

import io.servesim.latency.GpuCatalog;
import io.servesim.latency.GpuSpec;
import io.servesim.latency.ModelArchitecture;
import io.servesim.latency.ModelCatalog;
import io.servesim.latency.RooflineConstants;
import io.servesim.latency.RooflineModel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Leave-one-GPU-out validation of the roofline's cross-GPU constants: for every GPU with measurements,
 * fit the constants on the other GPUs ({@link RooflineFit}) and score the held-out GPU's step times and
 * kernel times; then replay the real vLLM run ({@link RealRun}) with the constants fitted without its GPU.
 * Also fits on every GPU: the constants servesim bundles ({@code roofline_constants.yaml}).
 *
 * <p>A real run on a GPU without measurements (a bundled row such as L40S, or a user's row from
 * {@code --gpus FILE}) is replayed with the constants fitted on every GPU: out of sample by construction,
 * and what {@code run} gives such a GPU (uncalibrated, {@link io.servesim.latency.RooflineModel#calibrationNote()}).
 *
 * @param all          the fit on every GPU
 * @param heldOut      one row per GPU, in order of first appearance in the data
 * @param realRun      the real run replayed with the constants fitted without its GPU, or null when no run was given
 * @param uncalibrated the GPUs of the catalog with no GEMM or engine-step measurements, in catalog order
 */
public record LatencyValidation(RooflineFit.Result all, List<HeldOut> heldOut, RealRunCheck realRun, List<String> uncalibrated) {
    /** Leading comment of {@code roofline_constants.yaml}: what the constants are and how they were fitted. */
    public static final String CONSTANTS_HEADER = """
            Cross-GPU constants of the roofline latency model (io.servesim.latency.RooflineConstants).
            Written by `servesim validate-latency --write-constants FILE` (io.servesim.fidelity.RooflineFit):
            do not edit by hand; rerun the command to refit.

            Data (sweeps/data, see its PROVENANCE.md): BLIS trained blackbox coefficients (H100, A100;
            entries of bundled models, on a grid of prefill and decode tokens), Splitwise Llama-2-70B prompt and
            token times (A100, H100; TP 2/4/8), Vidur H100 GEMM kernel times (Llama-2-7B, TP 1/2/4/8),
            LLMServingSim RTX PRO 6000 GEMM kernel times (Llama-3.1-8B; Qwen3-32B and Qwen3-30B-A3B at TP 1/2)
            and profiled steps (Llama-3.1-8B), per-layer attention times of decodes alone and beside a prefill chunk
            (RTX PRO 6000: Llama-3.1-8B, Qwen3-32B and Qwen3-30B-A3B at TP 1/2; RTX 4090: Llama-3.1-8B).
            Fit: stage 1 tensor/memory/attention efficiency and per-kernel cost on the kernel times, stage 2
            FlashAttention-2's tile cycles on the mixed attention times, stage 3 per-step and per-sequence CPU cost
            on the step times; each minimises the mean over GPUs of the mean over data sets of
            mean |ln(predicted / measured)| by Nelder-Mead from a fixed start.
              tensor_efficiency   share of the datasheet dense tensor peak a full wave of GEMM tiles reaches
              memory_efficiency   share of the datasheet memory bandwidth weight / activation traffic reaches
              attention_efficiency  share of the datasheet memory bandwidth the paged attention kernel's KV reads reach
              kernel_launch_us    fixed cost of every GPU kernel (launch, ramp-up, tail)
              fa2_cycles_per_kv_token   SM cycles per KV token of a decode's FlashAttention-2 query tile beside a
                                  prefill, per query head, beyond its MMAs (softmax, paged loads)
              fa2_cycles_per_tile       SM cycles per (decode, query head) tile: start, query load, output store
              fa2_cycles_per_idle_tile  SM cycles per tile that exits at once (a decode's rows past its one query)
              step_overhead_us    CPU time per engine step (behind the GPU with async scheduling, added to it without)
              per_sequence_us     CPU time per sequence in the batch (input preparation, sampling)
              fitted_on           the GPUs whose GEMM kernels or engine steps the fit used: on any other GPU the roofline
                                  is uncalibrated (the RTX 4090 enters through its attention kernels only: its GEMMs
                                  run at about its whole datasheet BF16 peak, unlike every other GPU's, and would move
                                  the shared tensor efficiency off the others)
            """;

    /**
     * One held-out GPU.
     *
     * @param gpu         the GPU held out
     * @param fit         the fit on the other GPUs
     * @param steps       step-time observations of the GPU
     * @param stepMedian  median |relative error| of its step times
     * @param stepP90     90th percentile of the same
     * @param kernels     GEMM kernel observations of the GPU (0 when it has none)
     * @param kernelMedian median |relative error| of its GEMM kernel times (NaN without kernels)
     * @param attention   per-layer decode attention observations of the GPU (0 when it has none)
     * @param attentionMedian median |relative error| of its attention times (NaN without them)
     * @param mixed       per-layer attention observations of decodes beside a prefill chunk (0 when it has none)
     * @param mixedMedian median |relative error| of those (NaN without them)
     */
    public record HeldOut(String gpu, RooflineFit.Result fit, int steps, double stepMedian, double stepP90, int kernels,
                          double kernelMedian, int attention, double attentionMedian, int mixed, double mixedMedian) {
    }

    /**
     * The real run replayed on its GPU with constants fitted without that GPU.
     *
     * @param gpu    the run's GPU
     * @param fit    the fit that excluded it
     * @param replay the replay
     */
    public record RealRunCheck(String gpu, RooflineFit.Result fit, Replay replay) {
        /** Signed mean error of {@code metric} (TTFT, TPOT, E2E), percent. */
        public double meanErrorPercent(String metric) {
            return replay.report().line(metric, "mean").diffPercent();
        }
    }

    /** {@link #run(Path, Path, String, GpuCatalog)} on the bundled GPUs. */
    public static LatencyValidation run(Path dataDir, Path runDirOrNull, String runGpu) {
        return run(dataDir, runDirOrNull, runGpu, GpuCatalog.builtIn());
    }

    /**
     * Runs the validation on the observations under {@code dataDir} and, when {@code runDirOrNull} is a
     * run directory, the real run on {@code runGpu} (looked up in {@code gpus}: the bundled GPUs and any user rows).
     */
    public static LatencyValidation run(Path dataDir, Path runDirOrNull, String runGpu, GpuCatalog gpus) {
        String runGpuName = gpus.lookup(runGpu, "--run-hardware").name();
        List<LatencyObservation> observations = LatencyDatasets.read(dataDir);
        Set<String> measured = new LinkedHashSet<>();
        observations.forEach(o -> measured.add(o.gpu().name()));
        boolean replay = runDirOrNull != null && Files.isDirectory(runDirOrNull);
        List<HeldOut> rows = new ArrayList<>();
        RealRunCheck check = null;
        for (String gpu : measured) {
            RooflineFit.Result fit = RooflineFit.fit(observations, g -> !g.name().equals(gpu));
            rows.add(score(gpu, fit, observations));
            if (gpu.equals(runGpuName) && replay) {
                check = replay(RealRun.read(runDirOrNull), gpu, fit, gpus);
            }
        }
        RooflineFit.Result all = RooflineFit.fit(observations, g -> true);
        if (!measured.contains(runGpuName) && replay) {
            check = replay(RealRun.read(runDirOrNull), runGpuName, all, gpus);
        }
        List<String> uncalibrated = gpus.names().stream().filter(g -> !all.constants().fittedOn().contains(g)).toList();
        return new LatencyValidation(all, rows, check, uncalibrated);
    }

    /** The real run replayed on {@code gpu} (of {@code gpus}) with the roofline under {@code fit}'s constants. */
    static RealRunCheck replay(RealRun run, String gpu, RooflineFit.Result fit, GpuCatalog gpus) {
        ReplaySetup setup = ReplaySetup.resolve(run, new ReplayOptions("roofline", gpu, null, null, null), gpus);
        ModelArchitecture arch = ModelCatalog.builtIn().lookup(setup.modelId(), "replay");
        GpuSpec spec = setup.gpu();
        RooflineModel model = new RooflineModel(arch, spec, run.settings().tensorParallel(), fit.constants());
        return new RealRunCheck(gpu, fit, Replay.run(run, setup.withLatency(model)));
    }

    private static HeldOut score(String gpu, RooflineFit.Result fit, List<LatencyObservation> observations) {
        RooflineConstants c = fit.constants();
        List<Double> steps = new ArrayList<>();
        List<Double> kernels = new ArrayList<>();
        List<Double> attention = new ArrayList<>();
        List<Double> mixed = new ArrayList<>();
        for (LatencyObservation o : observations) {
            if (o.gpu().name().equals(gpu)) {
                (o instanceof LatencyObservation.Step ? steps : !(o instanceof LatencyObservation.Attention) ? kernels
                        : o.mixedGpuOnly() ? mixed : attention).add(o.absRelativeError(c));
            }
        }
        return new HeldOut(gpu, fit, steps.size(), quantile(steps, 0.5), quantile(steps, 0.9), kernels.size(),
                quantile(kernels, 0.5), attention.size(), quantile(attention, 0.5), mixed.size(), quantile(mixed, 0.5));
    }

    /** The {@code q} quantile (linear interpolation between order statistics); NaN when empty. */
    static double quantile(List<Double> values, double q) {
        if (values.isEmpty()) {
            return Double.NaN;
        }
        double[] v = values.stream().mapToDouble(Double::doubleValue).toArray();
        Arrays.sort(v);
        double pos = q * (v.length - 1);
        int lo = (int) Math.floor(pos);
        int hi = Math.min(v.length - 1, lo + 1);
        return v[lo] + (pos - lo) * (v[hi] - v[lo]);
    }

    /** {@code 12.3%}, or {@code -} for NaN (no observations). */
    private static String percent(double share) {
        return Double.isNaN(share) ? "-" : String.format(Locale.ROOT, "%.1f%%", 100 * share);
    }

    /** The report as a plain-text table. */
    public String render() {
        StringBuilder b = new StringBuilder();
        b.append("leave-one-GPU-out: fit the cross-GPU constants on the other GPUs, predict the held-out one\n");
        b.append(String.format(Locale.ROOT, "%-12s %-34s %6s %10s %10s %8s %11s %10s %9s %6s %10s%n", "held out", "data of",
                "steps", "median|e|", "p90|e|", "kernels", "kernel med", "attention", "attn med", "mixed", "mixed med"));
        for (HeldOut h : heldOut) {
            b.append(String.format(Locale.ROOT, "%-12s %-34s %6d %10s %10s %8d %11s %10d %9s %6d %10s%n", h.gpu(),
                    String.join("+", h.fit().gpus()), h.steps(), percent(h.stepMedian()), percent(h.stepP90()), h.kernels(),
                    percent(h.kernelMedian()), h.attention(), percent(h.attentionMedian()), h.mixed(),
                    percent(h.mixedMedian())));
        }
        for (HeldOut h : heldOut) {
            b.append("  without ").append(h.gpu()).append(": ").append(h.fit().constants().describe()).append('\n');
        }
        if (!uncalibrated.isEmpty()) {
            b.append("no GEMM or engine-step measurements (the roofline is uncalibrated on them): ")
                    .append(String.join(", ", uncalibrated)).append('\n');
        }
        if (realRun != null) {
            b.append(String.format(Locale.ROOT, "real vLLM run on %s%s, constants fitted on the data of %s: mean error TTFT %+.1f%%, "
                            + "TPOT %+.1f%%, E2E %+.1f%%%n", realRun.gpu(), uncalibrated.contains(realRun.gpu()) ? " (uncalibrated)" : "",
                    String.join("+", realRun.fit().gpus()),
                    realRun.meanErrorPercent("TTFT"), realRun.meanErrorPercent("TPOT"), realRun.meanErrorPercent("E2E")));
        }
        b.append("all GPUs (bundled): ").append(all.constants().describe())
                .append(String.format(Locale.ROOT, " (GPU-only loss %.4f, mixed-step loss %.4f, engine-step loss %.4f)%n",
                        all.physicsLoss(), all.tilesLoss(), all.overheadLoss()));
        return b.toString();
    }
}
