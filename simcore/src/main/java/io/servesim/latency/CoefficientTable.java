package io.servesim.latency;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * BLIS's trained blackbox coefficients: the {@code models:} list of inference-sim/inference-sim's
 * {@code defaults.yaml} (Apache-2.0), bundled as {@code io/servesim/latency/blackbox_coefficients.yaml}.
 * Each entry is fitted on real vLLM runs of one (model, GPU, tensor parallelism) triple and also
 * records the KV-cache size vLLM reported ({@code total_kv_blocks}).
 *
 * <p>GPU spellings of the file ({@code H100}, {@code A100-80}) are mapped to {@link GpuCatalog}
 * canonical names. Model ids match case-insensitively. Where the file holds several entries for one
 * triple (it does for 24 RedHat quantised models), the one with the lowest {@code best_loss} wins;
 * an entry without {@code best_loss} ranks last, and ties keep the earlier entry in file order.
 */
public final class CoefficientTable {
    private static final CoefficientTable BUILT_IN = load(GpuCatalog.builtIn());

    /**
     * One trained triple.
     *
     * @param modelId       lower-case model id
     * @param gpu           canonical GPU name
     * @param tp            tensor-parallel degree
     * @param coefficients  alpha/beta coefficients (us)
     * @param totalKvBlocks KV blocks (16 tokens each) vLLM allocated in the training runs
     * @param bestLoss      training loss, or +infinity when the file gives none
     */
    public record Entry(String modelId, String gpu, int tp, BlackboxCoefficients coefficients,
                        int totalKvBlocks, double bestLoss) {
    }

    private final Map<String, Entry> byTriple;

    private CoefficientTable(Map<String, Entry> byTriple) {
        this.byTriple = byTriple;
    }

    /** The table bundled with servesim (immutable, loaded once). */
    public static CoefficientTable builtIn() {
        return BUILT_IN;
    }

    /** Coefficients for (model id, canonical GPU name, TP), if trained. */
    public Optional<Entry> find(String modelId, String gpu, int tp) {
        return Optional.ofNullable(byTriple.get(triple(modelId, gpu, tp)));
    }

    /**
     * The trained entry on {@code gpu} at {@code tp} of a bundled model whose architecture has {@code arch}'s shape
     * ({@link ModelArchitecture#sameShape}), for a model with no entry of its own: the one with the lowest training
     * loss, file order breaking ties.
     */
    public Optional<Entry> findByArchitecture(ModelArchitecture arch, String gpu, int tp) {
        Entry best = null;
        for (Entry e : byTriple.values()) {
            if (!e.gpu().equals(gpu) || e.tp() != tp) {
                continue;
            }
            Optional<ModelCatalog.Entry> bundled = ModelCatalog.builtIn().find(e.modelId());
            if (bundled.isPresent() && arch.sameShape(ModelCatalog.builtIn().architecture(bundled.get(), "coefficients"))
                    && (best == null || e.bestLoss() < best.bestLoss())) {
                best = e;
            }
        }
        return Optional.ofNullable(best);
    }

    /** Every trained triple of {@code modelId}, ordered by GPU then TP. */
    public List<Entry> entriesFor(String modelId) {
        String id = modelId.toLowerCase(Locale.ROOT);
        List<Entry> out = new ArrayList<>();
        for (Entry e : byTriple.values()) {
            if (e.modelId().equals(id)) {
                out.add(e);
            }
        }
        out.sort(Comparator.comparing(Entry::gpu).thenComparingInt(Entry::tp));
        return out;
    }

    /** Every trained triple, in file order. */
    public List<Entry> entries() {
        return List.copyOf(byTriple.values());
    }

    /** Number of distinct triples. */
    public int size() {
        return byTriple.size();
    }

    private static String triple(String modelId, String gpu, int tp) {
        return modelId.toLowerCase(Locale.ROOT) + '|' + gpu + '|' + tp;
    }

    private static CoefficientTable load(GpuCatalog gpus) {
        Map<String, Entry> byTriple = new LinkedHashMap<>();
        for (JsonNode n : Resources.yaml("blackbox_coefficients.yaml").path("models")) {
            String id = Resources.text(n, "id", "blackbox_coefficients.yaml").toLowerCase(Locale.ROOT);
            String where = "blackbox_coefficients.yaml " + id;
            String fileGpu = Resources.text(n, "GPU", where);
            String gpu = gpus.find(fileGpu).orElseThrow(
                    () -> new IllegalStateException(where + ": GPU '" + fileGpu + "' is not in gpus.yaml")).name();
            int tp = (int) Resources.number(n, "tensor_parallelism", where);
            double[] a = triple(n.path("alpha_coeffs"), where + " alpha_coeffs");
            double[] b = triple(n.path("beta_coeffs"), where + " beta_coeffs");
            double loss = n.has("best_loss") ? Resources.number(n, "best_loss", where) : Double.POSITIVE_INFINITY;
            Entry e = new Entry(id, gpu, tp, new BlackboxCoefficients(a[0], a[1], a[2], b[0], b[1], b[2]),
                    (int) Resources.number(n, "total_kv_blocks", where), loss);
            byTriple.merge(triple(id, gpu, tp), e, (old, neu) -> neu.bestLoss() < old.bestLoss() ? neu : old);
        }
        return new CoefficientTable(byTriple);
    }

    private static double[] triple(JsonNode list, String where) {
        if (list.size() != 3) {
            throw new IllegalStateException(where + ": expected 3 numbers, got " + list.size());
        }
        double[] v = new double[3];
        for (int i = 0; i < 3; i++) {
            if (!list.get(i).isNumber() || !(list.get(i).doubleValue() >= 0)) {
                throw new IllegalStateException(where + ": element " + i + " is not a non-negative number");
            }
            v[i] = list.get(i).doubleValue();
        }
        return v;
    }
}
