package io.servesim.fidelity;

import io.servesim.latency.GpuSpec;
import io.servesim.latency.RooflineConstants;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * Fits the roofline's cross-GPU {@link RooflineConstants} to measurements of several GPUs
 * ({@link LatencyDatasets}) in three stages, each a Nelder-Mead search ({@link NelderMead}):
 * <ol>
 *   <li>physics, on the GPU-only observations (GEMM and attention kernels and sums of profiled kernels) without decodes
 *       beside a prefill: tensor, memory and attention efficiency (as logits) and the per-kernel launch cost (as a log),
 *       with no CPU overhead;</li>
 *   <li>FlashAttention-2's tiles, on the GPU-only observations with decodes beside a prefill chunk
 *       ({@link LatencyObservation#mixedGpuOnly()}: the mixed rows of the attention profiles) with the physics of stage 1
 *       fixed: its cycles per KV token, per tile and per idle tile ({@link RooflineConstants.FlashAttention2}, as logs);</li>
 *   <li>CPU overhead, on the real engines' steps ({@link LatencyObservation#includesCpu()}) with the physics
 *       of stage 1 fixed: the per-step and per-sequence costs (as logs).</li>
 * </ol>
 * Each stage minimises
 * <pre>
 * loss = mean over GPUs ( mean over that GPU's sources ( mean |ln(predicted / measured)| ) )
 * </pre>
 * so that every GPU weighs the same however many observations it has, and within a GPU every data set
 * (a blackbox entry, a Splitwise TP, a kernel profile) weighs the same. GPU-only times isolate the GPU's
 * physics from the engine's CPU time, which differs between engines and vLLM versions. Deterministic: fixed starts
 * ({@link #PHYSICS_START}, {@link #TILES_START}, {@link #OVERHEAD_START}) and step, no randomness.
 */
public final class RooflineFit {
    /** Stage-1 start: efficiencies 0.8 / 0.85 / 0.85, 3 us per kernel. */
    static final double[] PHYSICS_START = {logit(0.8), logit(0.85), logit(0.85), Math.log(3)};
    /** Stage-2 start: 20 cycles per KV token, 5,000 per tile, 500 per idle tile. */
    static final double[] TILES_START = {Math.log(20), Math.log(5000), Math.log(500)};
    /** Stage-3 start: 300 us per step, 5 us per sequence. */
    static final double[] OVERHEAD_START = {Math.log(300), Math.log(5)};
    static final int MAX_EVALUATIONS = 1000;
    static final double TOLERANCE = 1e-8;
    static final double STEP = 0.7;

    /**
     * The fitted constants and the GPUs they were fitted on.
     *
     * @param constants    the constants
     * @param physicsLoss  stage-1 loss (GPU-only observations)
     * @param tilesLoss    stage-2 loss (mixed GPU-only observations)
     * @param overheadLoss stage-2 loss (engine steps)
     * @param gpus         names of the GPUs fitted on (the constants' {@link RooflineConstants#fittedOn()} are those of
     *                     them with GEMM kernels or engine steps in the fit: a GPU measured by its attention kernel
     *                     alone is not calibrated)
     */
    public record Result(RooflineConstants constants, double physicsLoss, double tilesLoss, double overheadLoss,
                         List<String> gpus) {
    }

    private RooflineFit() {
    }

    /** Fits on the observations of the GPUs {@code use} accepts. */
    public static Result fit(List<LatencyObservation> observations, Predicate<GpuSpec> use) {
        Map<String, Map<String, List<LatencyObservation>>> kernels = groups(observations,
                o -> use.test(o.gpu()) && !o.includesCpu() && !o.mixedGpuOnly());
        Map<String, Map<String, List<LatencyObservation>>> mixed = groups(observations,
                o -> use.test(o.gpu()) && o.mixedGpuOnly());
        Map<String, Map<String, List<LatencyObservation>>> steps = groups(observations, o -> use.test(o.gpu()) && o.includesCpu());
        if (kernels.isEmpty() || steps.isEmpty() || mixed.isEmpty()) {
            throw new IllegalArgumentException("the fit needs GPU-only, mixed-step GPU-only and engine-step observations");
        }
        if (observations.stream().noneMatch(o -> o instanceof LatencyObservation.Attention && use.test(o.gpu()))) {
            throw new IllegalArgumentException("the fit needs attention kernel observations (the attention efficiency)");
        }
        Function<double[], RooflineConstants> physics = x -> new RooflineConstants(sigmoid(x[0]), sigmoid(x[1]), sigmoid(x[2]),
                Math.exp(x[3]), 0, 0, "");
        NelderMead.Result p = NelderMead.minimize(x -> loss(kernels, physics.apply(x)), PHYSICS_START, STEP, MAX_EVALUATIONS,
                TOLERANCE);
        RooflineConstants phys = physics.apply(p.point());
        Function<double[], RooflineConstants> tiles = x -> new RooflineConstants(phys.tensorEfficiency(),
                phys.memoryEfficiency(), phys.attentionEfficiency(), phys.kernelLaunchUs(), 0, 0,
                new RooflineConstants.FlashAttention2(Math.exp(x[0]), Math.exp(x[1]), Math.exp(x[2])), "");
        NelderMead.Result t = NelderMead.minimize(x -> loss(mixed, tiles.apply(x)), TILES_START, STEP, MAX_EVALUATIONS,
                TOLERANCE);
        RooflineConstants.FlashAttention2 cycles = tiles.apply(t.point()).flashAttention2();
        Function<double[], RooflineConstants> overhead = x -> new RooflineConstants(phys.tensorEfficiency(),
                phys.memoryEfficiency(), phys.attentionEfficiency(), phys.kernelLaunchUs(), Math.exp(x[0]), Math.exp(x[1]),
                cycles, "");
        NelderMead.Result o = NelderMead.minimize(x -> loss(steps, overhead.apply(x)), OVERHEAD_START, STEP, MAX_EVALUATIONS,
                TOLERANCE);
        Set<String> gpus = new LinkedHashSet<>(kernels.keySet());
        gpus.addAll(steps.keySet());
        Set<String> attentionOnly = new LinkedHashSet<>(gpus);
        for (LatencyObservation obs : observations) {
            if (use.test(obs.gpu()) && !(obs instanceof LatencyObservation.Attention)) {
                attentionOnly.remove(obs.gpu().name());
            }
        }
        Set<String> calibrated = new LinkedHashSet<>(gpus);
        calibrated.removeAll(attentionOnly);
        RooflineConstants fitted = overhead.apply(o.point());
        String provenance = String.format(Locale.ROOT, "RooflineFit on %s%s: GPU-only loss %.4f, mixed-step loss %.4f,"
                + " engine-step loss %.4f", String.join(", ", gpus), attentionOnly.isEmpty() ? "" : " ("
                + String.join(", ", attentionOnly) + ": attention kernels only)", p.value(), t.value(), o.value());
        return new Result(new RooflineConstants(fitted.tensorEfficiency(), fitted.memoryEfficiency(),
                fitted.attentionEfficiency(), fitted.kernelLaunchUs(), fitted.stepOverheadUs(), fitted.perSequenceUs(), cycles,
                provenance, List.copyOf(calibrated)), p.value(), t.value(), o.value(), List.copyOf(gpus));
    }

    private static Map<String, Map<String, List<LatencyObservation>>> groups(List<LatencyObservation> observations,
                                                                             Predicate<LatencyObservation> take) {
        Map<String, Map<String, List<LatencyObservation>>> groups = new LinkedHashMap<>();
        for (LatencyObservation o : observations) {
            if (take.test(o)) {
                groups.computeIfAbsent(o.gpu().name(), g -> new LinkedHashMap<>())
                        .computeIfAbsent(o.source(), s -> new ArrayList<>()).add(o);
            }
        }
        return groups;
    }

    private static double loss(Map<String, Map<String, List<LatencyObservation>>> groups, RooflineConstants c) {
        double total = 0;
        for (Map<String, List<LatencyObservation>> sources : groups.values()) {
            double perGpu = 0;
            for (List<LatencyObservation> obs : sources.values()) {
                double sum = 0;
                for (LatencyObservation o : obs) {
                    sum += o.absLogError(c);
                }
                perGpu += sum / obs.size();
            }
            total += perGpu / sources.size();
        }
        return total / groups.size();
    }

    private static double sigmoid(double x) {
        return 1 / (1 + Math.exp(-x));
    }

    private static double logit(double p) {
        return Math.log(p / (1 - p));
    }
}
