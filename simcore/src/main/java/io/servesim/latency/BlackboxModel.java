package io.servesim.latency;

import io.servesim.config.ConfigException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * BLIS's blackbox latency model (inference-sim/inference-sim, {@code docs} "Configuration:
 * Coefficient Calibration"; coefficients fitted by linear regression on real vLLM runs):
 * <ul>
 *   <li>step time = b0 + b1 x new prefill tokens + b2 x decode tokens (us);</li>
 *   <li>queueing delay before the wait queue = a0 + a1 x input tokens (us);</li>
 *   <li>per-output-token processing = a2 (us), added to TTFT and each ITL without blocking the GPU.</li>
 * </ul>
 * Under speculative decoding a verified draft token is priced as a decode token (b2): the model's only term for the
 * tokens of running requests ({@link StepShape#decodeTokens()}), fitted on steps where each was one sequence's one
 * token, so it charges a draft token the whole per-sequence cost a decode carries (KV read included) and overprices
 * the verify pass, whose drafts read no KV of their own beyond their d tokens.
 * Results are rounded to the nearest microsecond; the step time is at least 1 us. Coefficients must
 * be finite and non-negative (checked by {@link #resolve}), which keeps the model monotone.
 */
public final class BlackboxModel implements LatencyModel {
    private final BlackboxCoefficients c;
    private final String label;
    private final String calibrationNote;

    /**
     * @param coefficients trained or explicit coefficients (us)
     * @param label        where they come from, for {@link #describe()} (e.g. the model/GPU/TP triple)
     */
    public BlackboxModel(BlackboxCoefficients coefficients, String label) {
        this(coefficients, label, "");
    }

    private BlackboxModel(BlackboxCoefficients coefficients, String label, String calibrationNote) {
        this.c = coefficients;
        this.label = label;
        this.calibrationNote = calibrationNote;
    }

    /**
     * The {@code blackbox} kind ({@link LatencyKind#BLACKBOX}, and {@code auto} when there are
     * coefficients): explicit coefficients, else the trained ones of the (model, GPU, TP) triple,
     * whose total KV blocks come along.
     */
    static ResolvedLatency resolve(LatencyContext c) {
        LatencySpec spec = c.spec();
        if (spec.coefficients() != null) {
            checkCoefficients(spec.coefficients(), c.path() + ".coefficients");
            CalibratedCoefficients file = spec.calibrated();
            if (file != null) {
                String mismatch = file.mismatch(c.modelKey(), c.gpu(), spec.gpus(), true);
                String label = "calibrated coefficients (" + file.file() + (file.fittedOn() == null ? "" : ", fitted on "
                        + file.fittedOn()) + ")";
                return new ResolvedLatency(new BlackboxModel(spec.coefficients(), label, mismatch == null ? "" : mismatch),
                        file.totalKvBlocks() > 0 ? OptionalInt.of(file.totalKvBlocks()) : OptionalInt.empty(), c.arch(), c.gpu());
            }
            return new ResolvedLatency(new BlackboxModel(spec.coefficients(), "explicit coefficients"),
                    OptionalInt.empty(), c.arch(), c.gpu());
        }
        Optional<CoefficientTable.Entry> trained = c.trained();
        if (trained.isEmpty()) {
            throw noCoefficients(c);
        }
        CoefficientTable.Entry e = trained.get();
        String triple = e.modelId() + " on " + c.gpu().name() + " TP" + spec.tp();
        if (!e.modelId().equals(c.modelKey())) {
            String note = "no trained coefficients for " + c.modelKey() + " on " + c.gpu().name() + " TP" + spec.tp()
                    + "; took those of " + e.modelId() + ", a bundled model of the same architecture (layers, widths, heads,"
                    + " experts and dtypes)";
            return new ResolvedLatency(new BlackboxModel(e.coefficients(), triple + " (trained, BLIS defaults.yaml; taken for "
                    + c.modelKey() + ", same architecture)"), OptionalInt.of(e.totalKvBlocks()), c.arch(), c.gpu(), note);
        }
        return new ResolvedLatency(new BlackboxModel(e.coefficients(), triple + " (trained, BLIS defaults.yaml)"),
                OptionalInt.of(e.totalKvBlocks()), c.arch(), c.gpu());
    }

    private static ConfigException noCoefficients(LatencyContext c) {
        if (c.modelKey() == null) {
            return new ConfigException(c.path() + ".model", "the blackbox model needs a model id to look up trained coefficients "
                    + "(or explicit coefficients)");
        }
        if (c.gpu() == null) {
            return new ConfigException(c.path() + ".hardware", "the blackbox model needs hardware to look up trained "
                    + "coefficients (or explicit coefficients); known: " + String.join(", ", GpuCatalog.builtIn().names()));
        }
        List<String> triples = new ArrayList<>();
        for (CoefficientTable.Entry e : CoefficientTable.builtIn().entriesFor(c.modelKey())) {
            triples.add(e.gpu() + " tp " + e.tp());
        }
        String have = triples.isEmpty() ? "none for this model (" + CoefficientTable.builtIn().size() + " model/GPU/TP triples are trained)"
                : String.join(", ", triples);
        return new ConfigException(c.kindKey(), "no trained blackbox coefficients for (model " + c.modelKey() + ", GPU "
                + c.gpu().name() + ", tp " + c.spec().tp() + "); trained for this model: " + have
                + "; give coefficients explicitly or use " + c.choice(LatencyKind.ROOFLINE));
    }

    private static void checkCoefficients(BlackboxCoefficients c, String path) {
        double[] values = {c.a0(), c.a1(), c.a2(), c.b0(), c.b1(), c.b2()};
        String[] names = {"a0", "a1", "a2", "b0", "b1", "b2"};
        for (int i = 0; i < values.length; i++) {
            if (!(values[i] >= 0) || Double.isInfinite(values[i])) {
                throw new ConfigException(path + "." + names[i], "coefficient must be finite and >= 0 (us), got " + values[i]);
            }
        }
    }

    public BlackboxCoefficients coefficients() {
        return c;
    }

    @Override
    public String name() {
        return "blackbox";
    }

    /** For calibrated coefficients used on another model or GPU than they were fitted on, which pair they describe. */
    @Override
    public String calibrationNote() {
        return calibrationNote;
    }

    @Override
    public String describe() {
        return String.format(Locale.ROOT,
                "blackbox %s: step = %.1f + %.4f x prefill + %.4f x decode us; before the engine (BLIS's queueing delay)"
                        + " = %.1f + %.4f x input us; %.1f us per output token",
                label, c.b0(), c.b1(), c.b2(), c.a0(), c.a1(), c.a2());
    }

    @Override
    public long stepTimeUs(StepShape step) {
        double us = c.b0() + c.b1() * step.prefillTokens() + c.b2() * step.decodeTokens();
        return Math.max(1L, Math.round(us));
    }

    @Override
    public long queueingDelayUs(int inputTokens) {
        return Math.max(0L, Math.round(c.a0() + c.a1() * inputTokens));
    }

    @Override
    public long outputTokenProcessingUs() {
        return Math.max(0L, Math.round(c.a2()));
    }
}
