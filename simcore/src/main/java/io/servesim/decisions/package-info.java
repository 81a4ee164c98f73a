/**
 * Decision records: what a policy decided for a request (admission, priority, routing, preemption), with
 * the signals it saw, counterfactual candidates, score regret and trace summaries,
 * streamed to a {@link io.servesim.decisions.DecisionSink}. Not to be confused with
 * {@code io.servesim.workload.trace}, which reads input request traces.
 */
package io.servesim.decisions;
