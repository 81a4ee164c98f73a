/**
 * Sim-to-real ranking: does a sweep order its cells the way real measurements order them, and how far
 * off are its numbers?
 *
 * <h2>Usage</h2>
 * <pre>
 * servesim compare --sim out/my-sweep/cells --real real.csv --on rate,policy --metrics ttft_p99_ms,e2e_mean_ms
 *                  [--output DIR]
 * </pre>
 * <ul>
 *   <li>{@code --sim}: the sweep's per-cell rows, one Parquet file or a directory of {@code *.parquet}
 *       (read with DuckDB, columns matched by name across files). Axis columns are compared as text,
 *       metric columns must be finite numbers.</li>
 *   <li>{@code --real}: a CSV file (RFC 4180, header line) with the same {@code --on} and metric columns,
 *       one row per measured configuration; other columns are ignored.</li>
 *   <li>Rows are joined on the {@code --on} columns. Labels are trimmed, and numeric labels compared
 *       by value ({@code 20}, {@code 20.0} and {@code 2e1} match). Several rows with the same key on one
 *       side (a sweep with several seeds per cell, or repeated measurements) are averaged per metric,
 *       and the table says so; stderr names the first repeated measured key with its two lines. Keys on one side only are listed on stderr and in the output, and left
 *       out of the statistics.</li>
 *   <li>Output: a table on stdout and {@code compare.parquet} (schema {@code schemas/compare.avsc}, one
 *       row per metric) in {@code --output}, by default {@code compare/} beside {@code --sim}
 *       ({@code out/my-sweep/compare/}).</li>
 *   <li>Exit 2 with a message naming the file, line or row, and column for a missing file or column, a
 *       metric value that is not a number, or a join with no key in common; exit 1 if writing fails.</li>
 * </ul>
 *
 * <h2>The statistics</h2>
 * Computed per metric over the n joined keys, {@code sim_i} and {@code real_i} being the two values of
 * key i ({@link io.servesim.compare.RankAgreement}). Each is null in the output (n/a in the table) where
 * it is undefined: every one when n &lt; 2 (MAPE excepted), the correlations when one side has a single
 * value, MAPE when a measured value is 0.
 * <ul>
 *   <li><b>Spearman's rho</b> (C. Spearman, "The proof and measurement of association between two
 *       things", Am. J. Psychol. 15, 1904): Pearson's correlation coefficient of the ranks of sim and of
 *       real, tied values getting the mean of the ranks they span ("average ranks"). Without ties this
 *       is {@code 1 - 6 sum(d_i^2) / (n (n^2 - 1))}, d_i the rank difference. 1: same order, -1: reversed.</li>
 *   <li><b>Kendall's tau-b</b> (M. G. Kendall, "A new measure of rank correlation", Biometrika 30, 1938;
 *       the tie-corrected tau-b in "The treatment of ties in ranking problems", Biometrika 33, 1945):
 *       over the n (n - 1) / 2 pairs of keys, {@code (C - D) / sqrt((C + D + Ts) (C + D + Tr))} with C
 *       concordant pairs (same order on both sides), D discordant pairs, Ts pairs tied in sim only and
 *       Tr pairs tied in real only. Without ties it is (C - D) / (n (n - 1) / 2).</li>
 *   <li><b>Pairwise ordering accuracy</b>: the share of the n (n - 1) / 2 pairs of keys that sim and real
 *       order the same way, {@code signum(sim_i - sim_j) == signum(real_i - real_j)}. Ties: a pair tied on
 *       both sides counts as right; a pair tied on one side only counts as wrong. Without ties it equals
 *       (tau + 1) / 2, the probability that the simulator picks the better of two configurations.</li>
 *   <li><b>MAPE</b>, mean absolute percentage error relative to the measurement:
 *       {@code 100 / n * sum |sim_i - real_i| / |real_i|}, in percent.</li>
 *   <li><b>n</b>: the joined keys (column {@code keys}); {@code sim_rows} and {@code real_rows} count the
 *       rows averaged into them.</li>
 * </ul>
 * Rho and tau-b come from Apache Commons Math 3.6.1 ({@code SpearmansCorrelation} with average ranks,
 * {@code KendallsCorrelation}, Knight's O(n log n) algorithm); they agree with SciPy's
 * {@code scipy.stats.spearmanr} and {@code scipy.stats.kendalltau} (variant 'b', its default) for
 * checking in a notebook.
 *
 * <h2>Reading the output</h2>
 * <pre>
 * SELECT metric, keys, spearman_rho, kendall_tau_b, pairwise_accuracy, mape_pct, unmatched_real_keys
 * FROM 'out/my-sweep/compare/compare.parquet';
 * </pre>
 */
package io.servesim.compare;
