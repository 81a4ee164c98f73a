package io.servesim.fidelity;

import io.servesim.latency.Gemm;
import io.servesim.latency.GpuSpec;
import io.servesim.latency.ModelArchitecture;
import io.servesim.latency.RooflineConstants;
import io.servesim.latency.RooflineModel;
import io.servesim.latency.StepShape;

/**
 * One measured latency on one GPU, and how the roofline model predicts it from candidate
 * {@link RooflineConstants}: a whole engine step ({@link Step}), one GEMM kernel ({@link Kernel}) or one layer's
 * attention kernel ({@link Attention}).
 * {@link LatencyDatasets} reads them from the shared measurement files.
 */
public sealed interface LatencyObservation {
    /** The GPU measured. */
    GpuSpec gpu();

    /** The data set it comes from (e.g. {@code splitwise llama2-70b TP4}). */
    String source();

    /** The measured time, microseconds. */
    double measuredUs();

    /** The roofline's prediction under {@code constants}, microseconds. */
    double predictUs(RooflineConstants constants);

    /**
     * Whether the measurement includes the engine's CPU time (a real engine's step) or only GPU kernels
     * (a kernel, or a sum of profiled kernels): the fit's second and first stage ({@link RooflineFit}).
     */
    boolean includesCpu();

    /**
     * Whether the measurement is GPU-only and holds decodes beside a prefill chunk: priced by FlashAttention-2's tiles on
     * the GPUs that run it, the fit's stage of those constants ({@link RooflineFit}), not its first.
     */
    default boolean mixedGpuOnly() {
        return false;
    }

    /** |ln(predicted / measured)|: the symmetric relative error the fit minimises. */
    default double absLogError(RooflineConstants constants) {
        return Math.abs(Math.log(predictUs(constants) / measuredUs()));
    }

    /** |predicted - measured| / measured: the error the validation table reports. */
    default double absRelativeError(RooflineConstants constants) {
        return Math.abs(predictUs(constants) / measuredUs() - 1);
    }

    /**
     * A measured step of {@code model} on {@code tp} GPUs computing {@code step}: a real engine's, with its CPU
     * time ({@code includesCpu}), or a sum of profiled kernels, predicted without the CPU constants. The real
     * engines measured (BLIS's vLLM 0.8.4-0.11.0, Splitwise's) ran without async scheduling, so their CPU and GPU
     * time add up ({@link RooflineModel#serialStepTimeUs}).
     */
    record Step(String source, ModelArchitecture model, GpuSpec gpu, int tp, StepShape step, double measuredUs,
                boolean includesCpu) implements LatencyObservation {
        @Override
        public double predictUs(RooflineConstants constants) {
            RooflineConstants c = includesCpu ? constants : new RooflineConstants(constants.tensorEfficiency(),
                    constants.memoryEfficiency(), constants.attentionEfficiency(), constants.kernelLaunchUs(), 0, 0,
                    constants.flashAttention2(), constants.provenance());
            return new RooflineModel(model, gpu, tp, c).serialStepTimeUs(step);
        }

        @Override
        public boolean mixedGpuOnly() {
            return !includesCpu && step.prefillSeqs() > 0 && step.decodeSeqs() > 0;
        }
    }

    /** A measured GEMM kernel: {@code m} rows times an {@code n} x {@code k} BF16 weight. */
    record Kernel(String source, GpuSpec gpu, int m, int n, int k, double measuredUs) implements LatencyObservation {
        @Override
        public boolean includesCpu() {
            return false;
        }

        @Override
        public double predictUs(RooflineConstants constants) {
            return new Gemm(n, k, 2, 2, gpu.peakFlopsPerSecond(2), gpu, constants).timeUs(m);
        }
    }

    /**
     * A measured per-layer attention kernel of {@code model} at {@code tp} over {@code step} (LLMServingSim's
     * {@code attention.csv} rows), predicted by {@link RooflineModel#attentionLayerUs}.
     */
    record Attention(String source, ModelArchitecture model, GpuSpec gpu, int tp, StepShape step, double measuredUs)
            implements LatencyObservation {
        @Override
        public boolean includesCpu() {
            return false;
        }

        @Override
        public double predictUs(RooflineConstants constants) {
            return new RooflineModel(model, gpu, tp, constants).attentionLayerUs(step);
        }

        @Override
        public boolean mixedGpuOnly() {
            return step.prefillSeqs() > 0 && step.decodeSeqs() > 0;
        }
    }
}
