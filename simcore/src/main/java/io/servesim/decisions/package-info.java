/**
 * Decision records: what a policy decided for a request (routing today), with the signals it saw,
 * streamed to a {@link io.servesim.decisions.DecisionSink}. Not to be confused with
 * {@code io.servesim.workload.trace}, which reads input request traces.
 */
package io.servesim.decisions;
