package io.servesim.metrics;

import java.util.Map;

/**
 * Aggregates of one simulation run, by part: the run's own, the KV tiers', the cluster's, autoscaling's and P/D's.
 * Latencies in ms; rates per second of simulated time over {@code durationS} (first arrival to the end of the run).
 * Every output reads it through the metric catalog ({@link MetricCatalog}): the run summary JSON ({@link #toMap()}),
 * {@code cells/} rows, {@code evaluate}'s raw metrics and the fitness; the names below are the catalog's.
 *
 * @param latencyModel          name of the latency model used; under P/D both pools' ({@code pd: prefill blackbox, decode
 *                              blackbox})
 * @param latencyDescription    which model/GPU/coefficients; under P/D both pools' ({@code pd: prefill pool [...], decode
 *                              pool [...]})
 * @param latencyCalibrationNote empty when the latency model's numbers come from measurements of the GPU it
 *                              runs on; else why its latency is uncalibrated (a GPU no measurement of which
 *                              was used in fitting, such as a user's {@code deployment.gpus} row)
 * @param totalKvBlocks         KV blocks per instance; under P/D the mean over both pools' instances (each pool's own in
 *                              {@link PdSummary.Pool#totalKvBlocks})
 * @param injected              requests that arrived
 * @param completed             requests that finished
 * @param dropped               requests dropped as unservable
 * @param rejected              requests rejected at admission
 * @param unfinished            requests still queued or running at the horizon
 * @param ttftMs                time to first token
 * @param e2eMs                 end-to-end latency
 * @param clientTtftMs          time to first token as clients see it (send to receipt, both network legs)
 * @param clientE2eMs           end-to-end latency as clients see it (send to receipt of the last token)
 * @param tpotMs                per-request mean inter-token latency (TPOT)
 * @param itlMs                 per-token inter-token latency (HdrHistogram, 3 significant digits)
 * @param schedulingDelayMs     first scheduled - arrival
 * @param queueingDelayMs       first scheduled - enqueue
 * @param durationS             first arrival to end of run, seconds
 * @param throughputRps         completed / duration
 * @param inputTokensPerS       prompt tokens of completed requests / duration
 * @param outputTokensPerS      output tokens of completed requests / duration
 * @param preemptions           preemptions
 * @param kvAllocationFailures  failed KV allocations (each triggers preemption or stops admission)
 * @param prefixHitRate         prefix-cache hit tokens / looked-up tokens at first admissions (a
 *                              preempted request's readmissions left out, as vLLM's exported rate)
 * @param preemptedPrefixHitRate prefix-cache hit tokens / looked-up tokens at readmissions of
 *                              preempted requests (mostly re-hits of their own recomputed blocks)
 * @param kvUtilizationMean     step-time-weighted mean share of KV blocks in use
 * @param kvUtilizationPeak     peak share of KV blocks in use
 * @param batchSizeMean         mean sequences per step
 * @param steps                 engine steps
 * @param eventsProcessed       kernel events processed
 * @param skippedTraceLines     malformed trace lines skipped (skip_bad_lines)
 * @param kvTiers               the KV cache per tier (GPU, CPU) and the transfers between them
 * @param cluster               cluster-level metrics
 * @param sessionsByClient      agentic sessions per client id (empty when the workload has none)
 * @param autoscaling           fleet size over the run and its cost (a fixed fleet's too)
 * @param pd                    the architecture (aggregated or P/D), goodput per GPU, P/D pools and KV transfers
 * @param ttfatMs               time to first answer token of completed requests with reasoning tokens
 * @param answerTokensPerS      output tokens of completed requests that were answer, not reasoning / duration
 * @param specDecode            speculative decoding's draft and accepted tokens over all instances
 */
public record RunSummary(String latencyModel, String latencyDescription, String latencyCalibrationNote,
                         long totalKvBlocks, long injected,
                         long completed, long dropped, long rejected, long unfinished, Distribution ttftMs, Distribution e2eMs,
                         Distribution clientTtftMs, Distribution clientE2eMs, Distribution tpotMs, Distribution itlMs, Distribution schedulingDelayMs,
                         Distribution queueingDelayMs, double durationS, double throughputRps,
                         double inputTokensPerS, double outputTokensPerS, long preemptions,
                         long kvAllocationFailures, double prefixHitRate, double preemptedPrefixHitRate,
                         double kvUtilizationMean,
                         double kvUtilizationPeak, double batchSizeMean, long steps, long eventsProcessed,
                         long skippedTraceLines, KvTierSummary kvTiers, ClusterSummary cluster,
                         Map<String, SessionSummary> sessionsByClient, ScalingSummary autoscaling,
                         PdSummary pd, Distribution ttfatMs, double answerTokensPerS, SpecDecodeSummary specDecode) {
    public RunSummary {
        sessionsByClient = Map.copyOf(sessionsByClient);
    }

    /** This summary with the agentic session aggregates {@code byClient}. */
    public RunSummary withSessions(Map<String, SessionSummary> byClient) {
        return new RunSummary(latencyModel, latencyDescription, latencyCalibrationNote, totalKvBlocks, injected, completed, dropped, rejected,
                unfinished, ttftMs, e2eMs, clientTtftMs, clientE2eMs, tpotMs, itlMs, schedulingDelayMs, queueingDelayMs, durationS,
                throughputRps, inputTokensPerS, outputTokensPerS, preemptions, kvAllocationFailures, prefixHitRate,
                preemptedPrefixHitRate, kvUtilizationMean, kvUtilizationPeak, batchSizeMean, steps, eventsProcessed,
                skippedTraceLines, kvTiers, cluster, byClient, autoscaling, pd, ttfatMs, answerTokensPerS, specDecode);
    }

    /** This summary with the cluster fitness computed from {@code weights} (NaN when none). */
    public RunSummary withFitness(FitnessWeights weights) {
        if (weights.isEmpty()) {
            return this;
        }
        ClusterSummary c = cluster;
        ClusterSummary withScore = new ClusterSummary(c.instances(), c.requestsPerInstance(), c.loadImbalanceCv(),
                c.admissionDelays(), c.sloMet(), c.sloAttainment(), c.goodputRps(), c.jainFairness(), c.priorityInversions(),
                c.headOfLineBlocks(), weights.score(this), c.bySloClass(), c.byTenant());
        return new RunSummary(latencyModel, latencyDescription, latencyCalibrationNote, totalKvBlocks, injected, completed, dropped, rejected,
                unfinished, ttftMs, e2eMs, clientTtftMs, clientE2eMs, tpotMs, itlMs, schedulingDelayMs, queueingDelayMs, durationS,
                throughputRps, inputTokensPerS, outputTokensPerS, preemptions, kvAllocationFailures, prefixHitRate,
                preemptedPrefixHitRate, kvUtilizationMean, kvUtilizationPeak, batchSizeMean, steps, eventsProcessed,
                skippedTraceLines, kvTiers, withScore, sessionsByClient, autoscaling, pd, ttfatMs,
                answerTokensPerS, specDecode);
    }

    /** {@code calibrated}, or {@code uncalibrated} when {@link #latencyCalibrationNote} says why not. */
    public String latencyCalibration() {
        return latencyCalibrationNote.isEmpty() ? "calibrated" : "uncalibrated";
    }

    /** Rejected share of injected requests (0 when none arrived). */
    public double rejectionRate() {
        return (double) rejected / Math.max(1, injected);
    }

    /** Preemptions per injected request (0 when none arrived). */
    public double preemptionsPerRequest() {
        return (double) preemptions / Math.max(1, injected);
    }

    /** The run summary JSON as an ordered map, generated from the metric catalog ({@link SummaryJson}). */
    public Map<String, Object> toMap() {
        return SummaryJson.of(this);
    }
}
