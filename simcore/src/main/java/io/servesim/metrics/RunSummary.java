package io.servesim.metrics;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Aggregates of one simulation run. Latencies in ms; rates per second of simulated time over
 * {@code durationS} (first arrival to the end of the run).
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
 * @param tokenItlMs            per-token inter-token latency (HdrHistogram, 3 significant digits)
 * @param schedulingDelayMs     first scheduled - arrival
 * @param queueingDelayMs       first scheduled - enqueue
 * @param durationS             first arrival to end of run, seconds
 * @param requestsPerSec        completed / duration
 * @param inputTokensPerSec     prompt tokens of completed requests / duration
 * @param outputTokensPerSec    output tokens of completed requests / duration
 * @param preemptions           preemptions
 * @param kvAllocationFailures  failed KV allocations (each triggers preemption or stops admission)
 * @param cacheHitRate          prefix-cache hit tokens / looked-up tokens at first admissions (a
 *                              preempted request's readmissions left out, as vLLM's exported rate)
 * @param preemptedCacheHitRate prefix-cache hit tokens / looked-up tokens at readmissions of
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
 */
public record RunSummary(String latencyModel, String latencyDescription, String latencyCalibrationNote,
                         long totalKvBlocks, long injected,
                         long completed, long dropped, long rejected, long unfinished, Distribution ttftMs, Distribution e2eMs,
                         Distribution clientTtftMs, Distribution clientE2eMs, Distribution tpotMs, Distribution tokenItlMs, Distribution schedulingDelayMs,
                         Distribution queueingDelayMs, double durationS, double requestsPerSec,
                         double inputTokensPerSec, double outputTokensPerSec, long preemptions,
                         long kvAllocationFailures, double cacheHitRate, double preemptedCacheHitRate,
                         double kvUtilizationMean,
                         double kvUtilizationPeak, double batchSizeMean, long steps, long eventsProcessed,
                         long skippedTraceLines, KvTierSummary kvTiers, ClusterSummary cluster,
                         Map<String, SessionSummary> sessionsByClient, ScalingSummary autoscaling,
                         PdSummary pd) {
    public RunSummary {
        sessionsByClient = Map.copyOf(sessionsByClient);
    }

    /** This summary with the agentic session aggregates {@code byClient}. */
    public RunSummary withSessions(Map<String, SessionSummary> byClient) {
        return new RunSummary(latencyModel, latencyDescription, latencyCalibrationNote, totalKvBlocks, injected, completed, dropped, rejected,
                unfinished, ttftMs, e2eMs, clientTtftMs, clientE2eMs, tpotMs, tokenItlMs, schedulingDelayMs, queueingDelayMs, durationS,
                requestsPerSec, inputTokensPerSec, outputTokensPerSec, preemptions, kvAllocationFailures, cacheHitRate,
                preemptedCacheHitRate, kvUtilizationMean, kvUtilizationPeak, batchSizeMean, steps, eventsProcessed,
                skippedTraceLines, kvTiers, cluster, byClient, autoscaling, pd);
    }

    /** This summary with the cluster fitness computed from {@code weights} (NaN when none). */
    public RunSummary withFitness(FitnessWeights weights) {
        if (weights.isEmpty()) {
            return this;
        }
        ClusterSummary c = cluster;
        ClusterSummary withScore = new ClusterSummary(c.instances(), c.requestsPerInstance(), c.loadImbalanceCv(),
                c.delayed(), c.sloMet(), c.sloAttainment(), c.goodputRps(), c.jainFairness(), c.priorityInversions(),
                c.headOfLineBlocks(), weights.score(this), c.bySloClass(), c.byTenant());
        return new RunSummary(latencyModel, latencyDescription, latencyCalibrationNote, totalKvBlocks, injected, completed, dropped, rejected,
                unfinished, ttftMs, e2eMs, clientTtftMs, clientE2eMs, tpotMs, tokenItlMs, schedulingDelayMs, queueingDelayMs, durationS,
                requestsPerSec, inputTokensPerSec, outputTokensPerSec, preemptions, kvAllocationFailures, cacheHitRate,
                preemptedCacheHitRate, kvUtilizationMean, kvUtilizationPeak, batchSizeMean, steps, eventsProcessed,
                skippedTraceLines, kvTiers, withScore, sessionsByClient, autoscaling, pd);
    }

    /** {@code calibrated}, or {@code uncalibrated} when {@link #latencyCalibrationNote} says why not. */
    public String latencyCalibration() {
        return latencyCalibrationNote.isEmpty() ? "calibrated" : "uncalibrated";
    }

    /** Stable, documented key order for JSON output ({@code latency_calibration_note} only when uncalibrated). */
    public Map<String, Object> toMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("latency_model", latencyModel);
        m.put("latency_description", latencyDescription);
        m.put("latency_calibration", latencyCalibration());
        if (!latencyCalibrationNote.isEmpty()) {
            m.put("latency_calibration_note", latencyCalibrationNote);
        }
        m.put("total_kv_blocks", totalKvBlocks);
        m.put("injected", injected);
        m.put("completed", completed);
        m.put("dropped", dropped);
        m.put("rejected", rejected);
        m.put("unfinished", unfinished);
        m.put("ttft_ms", ttftMs.toMap());
        m.put("e2e_ms", e2eMs.toMap());
        m.put("client_ttft_ms", clientTtftMs.toMap());
        m.put("client_e2e_ms", clientE2eMs.toMap());
        m.put("tpot_ms", tpotMs.toMap());
        m.put("token_itl_ms", tokenItlMs.toMap());
        m.put("scheduling_delay_ms", schedulingDelayMs.toMap());
        m.put("queueing_delay_ms", queueingDelayMs.toMap());
        m.put("duration_s", durationS);
        m.put("requests_per_sec", requestsPerSec);
        m.put("input_tokens_per_sec", inputTokensPerSec);
        m.put("output_tokens_per_sec", outputTokensPerSec);
        m.put("preemptions", preemptions);
        m.put("kv_allocation_failures", kvAllocationFailures);
        m.put("cache_hit_rate", cacheHitRate);
        m.put("preempted_cache_hit_rate", preemptedCacheHitRate);
        m.put("kv_utilization_mean", kvUtilizationMean);
        m.put("kv_utilization_peak", kvUtilizationPeak);
        m.put("batch_size_mean", batchSizeMean);
        m.put("steps", steps);
        m.put("events_processed", eventsProcessed);
        m.put("skipped_trace_lines", skippedTraceLines);
        m.put("kv_tiers", kvTiers.toMap());
        m.put("cluster", cluster.toMap());
        m.put("autoscaling", autoscaling.toMap());
        m.put("pd", pd.toMap());
        if (!sessionsByClient.isEmpty()) {
            Map<String, Object> sessions = new LinkedHashMap<>();
            new java.util.TreeMap<>(sessionsByClient).forEach((id, s) -> sessions.put(id, s.toMap()));
            m.put("sessions", sessions);
        }
        return m;
    }
}
