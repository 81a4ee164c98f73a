package io.servesim.latency;

import io.servesim.config.ConfigException;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * One decoder layer's measured attention time over the four axes of LLMServingSim's
 * {@code attention.csv}: {@code prefill_chunk} (new prefill tokens in the step, summed over the
 * prefill requests), {@code kv_prefill} (KV those requests already hold, summed), {@code n_decode}
 * (decode requests) and {@code kv_decode} (their KV length: the mean of the batch).
 *
 * <p>Reading follows casys-kaist/LLMServingSim {@code serving/core/trace_generator.py}
 * ({@code _lookup_attention}, {@code _attn_slice_lookup}): the profile is a set of
 * {@code (prefill_chunk, n_decode)} slices, each a grid over {@code (kv_prefill, kv_decode)}; every
 * axis is blended linearly between its two nearest samples, clamped below the first sample and
 * extrapolated linearly above the last. Two documented differences:
 * <ul>
 *   <li>A slice the profile lacks (the RTX PRO 6000 profile has no mixed slice at 256 decodes) is
 *       filled additively: the same prefill with the nearest smaller decode count, plus what the
 *       extra decodes cost alone. LLMServingSim substitutes the nearest measured slice instead, which
 *       for a 2048-token chunk with 256 decodes drops half the decode work.</li>
 *   <li>All slices are resampled onto one rectangular grid (the union of every axis's samples; exact,
 *       as the blend is piecewise linear), and the grid is made non-decreasing along each axis by a
 *       running maximum, as {@link PiecewiseLinear} does, so more work never costs less time.</li>
 * </ul>
 */
final class AttentionGrid {
    private final double[] prefill;
    private final double[] kvPrefill;
    private final double[] decode;
    private final double[] kvDecode;
    /** Time in us at [prefill][decode][kvPrefill][kvDecode], flattened. */
    private final double[] timeUs;

    private AttentionGrid(double[] prefill, double[] decode, double[] kvPrefill, double[] kvDecode, double[] timeUs) {
        this.prefill = prefill;
        this.decode = decode;
        this.kvPrefill = kvPrefill;
        this.kvDecode = kvDecode;
        this.timeUs = timeUs;
    }

    /** Reads {@code attention.csv}: columns prefill_chunk, kv_prefill, n_decode, kv_decode, time_us. */
    static AttentionGrid read(ProfileCsv csv) {
        int cPc = csv.column("prefill_chunk");
        int cKp = csv.column("kv_prefill");
        int cNd = csv.column("n_decode");
        int cKd = csv.column("kv_decode");
        int cT = csv.column("time_us");
        Map<Long, Slice> slices = new HashMap<>();
        TreeSet<Integer> pcs = new TreeSet<>();
        TreeSet<Integer> nds = new TreeSet<>();
        TreeSet<Integer> kps = new TreeSet<>();
        TreeSet<Integer> kds = new TreeSet<>();
        for (int r = 0; r < csv.size(); r++) {
            int pc = csv.integer(r, cPc, 0);
            int nd = csv.integer(r, cNd, 0);
            int kp = csv.integer(r, cKp, 0);
            int kd = csv.integer(r, cKd, 0);
            pcs.add(pc);
            nds.add(nd);
            kps.add(kp);
            kds.add(kd);
            slices.computeIfAbsent(key(pc, nd), k -> new Slice()).put(kp, kd, csv.number(r, cT, 0));
        }
        if (slices.isEmpty()) {
            throw new ConfigException(csv.file(), "attention table has no rows");
        }
        double[] pc = toArray(pcs);
        double[] nd = toArray(nds);
        double[] kp = toArray(kps);
        double[] kd = toArray(kds);
        Slice[][] bySlice = new Slice[pc.length][nd.length];
        for (int i = 0; i < pc.length; i++) {
            for (int j = 0; j < nd.length; j++) {
                bySlice[i][j] = slices.get(key((int) pc[i], (int) nd[j]));
            }
        }
        double[] grid = new double[pc.length * nd.length * kp.length * kd.length];
        for (int i = 0; i < pc.length; i++) {
            for (int j = 0; j < nd.length; j++) {
                for (int a = 0; a < kp.length; a++) {
                    for (int b = 0; b < kd.length; b++) {
                        grid[((i * nd.length + j) * kp.length + a) * kd.length + b] =
                                filled(bySlice, i, j, kp[a], kd[b], csv.file());
                    }
                }
            }
        }
        int[] dims = {pc.length, nd.length, kp.length, kd.length};
        for (int axis = 0; axis < 4; axis++) {
            runningMax(grid, dims, axis);
        }
        return new AttentionGrid(pc, nd, kp, kd, grid);
    }

    /**
     * Attention time of one decoder layer in us.
     *
     * @param prefillTokens   new prefill tokens in the step
     * @param kvPrefillTokens KV already held by the prefill requests, summed
     * @param decodeSeqs      decode requests
     * @param kvDecodeTokens  KV length of the decode requests (the batch mean)
     */
    double timeUs(double prefillTokens, double kvPrefillTokens, double decodeSeqs, double kvDecodeTokens) {
        int i = bracket(prefill, prefillTokens);
        int j = bracket(decode, decodeSeqs);
        int a = bracket(kvPrefill, kvPrefillTokens);
        int b = bracket(kvDecode, kvDecodeTokens);
        double ti = weight(prefill, i, prefillTokens);
        double tj = weight(decode, j, decodeSeqs);
        double ta = weight(kvPrefill, a, kvPrefillTokens);
        double tb = weight(kvDecode, b, kvDecodeTokens);
        double sum = 0;
        for (int di = 0; di < 2; di++) {
            double wi = di == 0 ? 1 - ti : ti;
            for (int dj = 0; dj < 2; dj++) {
                double wj = dj == 0 ? 1 - tj : tj;
                for (int da = 0; da < 2; da++) {
                    double wa = da == 0 ? 1 - ta : ta;
                    for (int db = 0; db < 2; db++) {
                        double wb = db == 0 ? 1 - tb : tb;
                        double w = wi * wj * wa * wb;
                        if (w != 0) {
                            sum += w * timeUs[(((i + di) * decode.length + j + dj) * kvPrefill.length + a + da)
                                    * kvDecode.length + b + db];
                        }
                    }
                }
            }
        }
        return sum;
    }

    /** Index of the lower sample of the bracket used for {@code x} (the last pair above the range). */
    private static int bracket(double[] xs, double x) {
        if (xs.length == 1 || x <= xs[0]) {
            return 0;
        }
        int i = Arrays.binarySearch(xs, x);
        int hi = i >= 0 ? i : -i - 1;
        return Math.min(Math.max(hi - 1, 0), xs.length - 2);
    }

    /** Blend weight of the upper sample: 0 when clamped below, above 1 when extrapolating. */
    private static double weight(double[] xs, int lo, double x) {
        if (xs.length == 1 || x <= xs[0]) {
            return 0;
        }
        return (x - xs[lo]) / (xs[lo + 1] - xs[lo]);
    }

    /** The value at a grid point, from its own slice or, when missing, filled additively. */
    private static double filled(Slice[][] s, int i, int j, double kp, double kd, String where) {
        if (s[i][j] != null) {
            return s[i][j].at(kp, kd);
        }
        if (i == 0 && j == 0) {
            return 0; // no prefill and no decode: no attention work
        }
        for (int lower = j - 1; lower >= 0; lower--) {
            Slice zeroLower = s[0][lower];
            if (s[i][lower] != null && s[0][j] != null && (zeroLower != null || lower == 0)) {
                double extraDecodes = s[0][j].at(0, kd) - (zeroLower == null ? 0 : zeroLower.at(0, kd));
                return s[i][lower].at(kp, kd) + extraDecodes;
            }
        }
        for (int lower = i - 1; lower >= 0; lower--) {
            Slice lowerZero = s[lower][0];
            if (s[lower][j] != null && s[i][0] != null && (lowerZero != null || lower == 0)) {
                double extraPrefill = s[i][0].at(kp, 0) - (lowerZero == null ? 0 : lowerZero.at(kp, 0));
                return s[lower][j].at(kp, kd) + extraPrefill;
            }
        }
        throw new ConfigException(where, "attention table has no slice for prefill_chunk/n_decode grid point " + i + "/" + j
                + " and none to fill it from");
    }

    private static void runningMax(double[] grid, int[] dims, int axis) {
        int stride = 1;
        for (int d = axis + 1; d < 4; d++) {
            stride *= dims[d];
        }
        int len = dims[axis];
        for (int base = 0; base < grid.length; base++) {
            if ((base / stride) % len != 0) {
                continue;
            }
            for (int k = 1; k < len; k++) {
                int at = base + k * stride;
                grid[at] = Math.max(grid[at], grid[at - stride]);
            }
        }
    }

    private static long key(int prefillChunk, int decodes) {
        return ((long) prefillChunk << 32) | decodes;
    }

    private static double[] toArray(TreeSet<Integer> values) {
        return values.stream().mapToDouble(Integer::doubleValue).toArray();
    }

    /** One measured (prefill_chunk, n_decode) slice: rows by kv_prefill, each a curve over kv_decode. */
    private static final class Slice {
        private final TreeMap<Integer, TreeMap<Integer, Double>> rows = new TreeMap<>();
        private double[] kpKeys;
        private double[][] kdKeys;
        private double[][] values;

        void put(int kp, int kd, double timeUs) {
            rows.computeIfAbsent(kp, k -> new TreeMap<>()).put(kd, timeUs); // duplicates: last wins, as LLMServingSim
            kpKeys = null;
        }

        /** LLMServingSim's {@code _attn_slice_lookup}: linear on kv_prefill between two rows, each linear on kv_decode. */
        double at(double kp, double kd) {
            if (kpKeys == null) {
                freeze();
            }
            int lo = bracket(kpKeys, kp);
            double t = weight(kpKeys, lo, kp);
            double vLo = row(lo, kd);
            if (kpKeys.length == 1 || t == 0) {
                return vLo;
            }
            return vLo + t * (row(lo + 1, kd) - vLo);
        }

        private double row(int r, double kd) {
            double[] ks = kdKeys[r];
            int lo = bracket(ks, kd);
            double t = weight(ks, lo, kd);
            return ks.length == 1 || t == 0 ? values[r][lo] : values[r][lo] + t * (values[r][lo + 1] - values[r][lo]);
        }

        private void freeze() {
            int n = rows.size();
            kpKeys = new double[n];
            kdKeys = new double[n][];
            values = new double[n][];
            int r = 0;
            for (var e : rows.entrySet()) {
                kpKeys[r] = e.getKey();
                kdKeys[r] = e.getValue().keySet().stream().mapToDouble(Integer::doubleValue).toArray();
                values[r] = e.getValue().values().stream().mapToDouble(Double::doubleValue).toArray();
                r++;
            }
        }
    }
}
