package io.servesim.latency;

import io.servesim.config.ConfigException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Step time from Splitwise's measured {@code perf_model.csv} (Mutinifni/splitwise-sim
 * {@code data/perf_model.csv}; columns {@code model,hardware,prompt_size,batch_size,token_size,...,
 * prompt_time,token_time,e2e_time,tensor_parallel}, times in ms), read as splitwise-sim's
 * {@code DatabasePerformanceModel} reads it ({@code performance_model.py}):
 * <ul>
 *   <li>rows of one (model, hardware, tensor_parallel) are keyed by batch tokens
 *       {@code prompt_size x batch_size}; repeated measurements of a key are reduced to their median;
 *       {@code prompt_time} and {@code token_time} are each interpolated linearly over that key;</li>
 *   <li>a step with prefill work costs {@code prompt_time(prefill tokens + decode tokens)}, times 1.1
 *       when decodes ride along (splitwise-sim's mixed-batch factor);</li>
 *   <li>a decode-only step costs {@code token_time} at the batch's total KV length (the sum of the
 *       decode contexts): a row measures {@code batch_size} sequences decoding over
 *       {@code prompt_size} tokens each. (splitwise-sim queries this curve with the decode count,
 *       which is below every key of the table; the KV reading is the one the measurements support.)</li>
 * </ul>
 * Below the smallest key a curve is clamped (splitwise-sim's {@code interp1d} extrapolates there);
 * above the largest it is extrapolated linearly; both curves are made non-decreasing
 * ({@link PiecewiseLinear}). The model has no context term for prefill: the file has none.
 */
public final class SplitwiseModel implements LatencyModel {
    /** splitwise-sim's slowdown of a prompt batch that also carries decode tokens. */
    public static final double MIXED_BATCH_FACTOR = 1.1;

    private final String label;
    private final PiecewiseLinear promptMsByTokens;
    private final PiecewiseLinear tokenMsByKvTokens;

    private SplitwiseModel(String label, PiecewiseLinear promptMsByTokens, PiecewiseLinear tokenMsByKvTokens) {
        this.label = label;
        this.promptMsByTokens = promptMsByTokens;
        this.tokenMsByKvTokens = tokenMsByKvTokens;
    }

    /**
     * Reads the rows of ({@code model}, {@code hardware}, {@code tp}) from {@code file} in {@code files}.
     *
     * @throws ConfigException when the file has no such rows (listing the triples it has)
     */
    static SplitwiseModel read(ProfileFiles files, String file, String model, String hardware, int tp, String label) {
        ProfileCsv csv = files.csv(file);
        int cModel = csv.column("model");
        int cHw = csv.column("hardware");
        int cTp = csv.column("tensor_parallel");
        int cPrompt = csv.column("prompt_size");
        int cBatch = csv.column("batch_size");
        int cPromptTime = csv.column("prompt_time");
        int cTokenTime = csv.column("token_time");
        Map<Long, List<Double>> prompt = new TreeMap<>();
        Map<Long, List<Double>> token = new TreeMap<>();
        TreeSet<String> triples = new TreeSet<>();
        for (int r = 0; r < csv.size(); r++) {
            String m = csv.text(r, cModel);
            String h = csv.text(r, cHw);
            int t = csv.integer(r, cTp, 1);
            triples.add(m + "/" + h + "/TP" + t);
            if (m.equalsIgnoreCase(model) && h.equalsIgnoreCase(hardware) && t == tp) {
                long key = (long) csv.integer(r, cPrompt, 1) * csv.integer(r, cBatch, 1);
                prompt.computeIfAbsent(key, k -> new ArrayList<>()).add(csv.number(r, cPromptTime, 0));
                token.computeIfAbsent(key, k -> new ArrayList<>()).add(csv.number(r, cTokenTime, 0));
            }
        }
        if (prompt.isEmpty()) {
            throw new ConfigException(files.where(file), "no rows for " + model + "/" + hardware + "/TP" + tp + "; the file has "
                    + String.join(", ", triples));
        }
        return new SplitwiseModel(String.format(Locale.ROOT, "%s (%s on %s TP%d)", label, model, hardware, tp),
                medians(prompt), medians(token));
    }

    @Override
    public String name() {
        return "profiled";
    }

    @Override
    public String describe() {
        return "profiled " + label + ": prompt_time by batch tokens, token_time by batch KV tokens; x"
                + MIXED_BATCH_FACTOR + " for mixed steps";
    }

    @Override
    public long stepTimeUs(StepShape step) {
        double ms;
        if (step.prefillTokens() > 0) {
            ms = promptMsByTokens.at(step.totalTokens());
            if (step.decodeSeqs() > 0) {
                ms *= MIXED_BATCH_FACTOR;
            }
        } else {
            ms = tokenMsByKvTokens.at(step.decodeContextTokens());
        }
        return Math.max(1L, Math.round(ms * 1000));
    }

    private static PiecewiseLinear medians(Map<Long, List<Double>> byKey) {
        double[] xs = new double[byKey.size()];
        double[] ys = new double[byKey.size()];
        int i = 0;
        for (var e : byKey.entrySet()) {
            xs[i] = e.getKey();
            ys[i] = median(e.getValue());
            i++;
        }
        return new PiecewiseLinear(xs, ys);
    }

    /** Median as pandas computes it (mean of the two middle values for an even count). */
    static double median(List<Double> values) {
        double[] v = values.stream().mapToDouble(Double::doubleValue).toArray();
        Arrays.sort(v);
        int n = v.length;
        return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
    }
}
