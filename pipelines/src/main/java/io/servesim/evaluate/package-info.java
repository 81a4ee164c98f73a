/**
 * Evaluation of policy candidates for search loops (BLIS policy-optimization plan, PR 19-20, G.3):
 * {@link io.servesim.evaluate.Evaluator} runs a candidate's plans traced into summaries;
 * {@link io.servesim.evaluate.EvaluationFormat} shapes the result for GEPA, OpenEvolve or natively.
 * Used by {@code servesim evaluate}; the Python shims in {@code scripts/} call that command.
 */
package io.servesim.evaluate;
