/**
 * Evaluation of policy candidates for search loops (BLIS macro plan, PR 19, PR 20 and G.3:
 * inference-sim/inference-sim @ 7d4e8bac, {@code docs/plans/2026-02-11-macro-implementation-plan-v2.md}):
 * {@link io.servesim.evaluate.Evaluator} runs a candidate's plans traced into summaries;
 * {@link io.servesim.evaluate.EvaluationFormat} shapes the result for GEPA, OpenEvolve or natively.
 * Used by {@code servesim evaluate}; the Python shims in {@code scripts/} call that command.
 */
package io.servesim.evaluate;
