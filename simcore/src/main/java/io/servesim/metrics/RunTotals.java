package io.servesim.metrics;

/**
 * What the simulation knows at the end beyond the collector's own tallies.
 *
 * @param latencyName          latency model name
 * @param latencyDescription   latency model description
 * @param latencyCalibrationNote empty when the latency model is calibrated on the GPU it runs on, else why not
 * @param totalKvBlocks        KV blocks per instance (under P/D the decode pool's: the summary's top level is
 *                             {@link PdSummary#totalKvBlocks}, and latency name and description likewise its)
 * @param injected             requests that reached the cluster
 * @param endUs                clock at the end of the run
 * @param preemptions          preemptions over all instances
 * @param kvAllocationFailures failed KV allocations over all instances
 * @param prefixHitRate        prefix-cache hit tokens / looked-up tokens at first admissions, all instances
 * @param preemptedPrefixHitRate the same over readmissions of preempted requests
 * @param eventsProcessed      kernel events
 * @param skippedTraceLines    malformed trace lines skipped
 * @param requestsPerInstance  requests per instance id, each counted once where it was last routed (under P/D once in
 *                             each pool it was routed over)
 * @param headOfLineBlocks     head-of-line blocking steps over all instances
 * @param kvTiers              the KV cache per tier over all instances
 * @param fitness              fitness weights (may be empty)
 * @param scaling              fleet size and cost over the run
 * @param pd                   the architecture, P/D pools and transfers (goodput per GPU and utilizations not yet known)
 * @param specDecode           speculative decoding over all instances
 */
public record RunTotals(String latencyName, String latencyDescription, String latencyCalibrationNote, long totalKvBlocks, long injected, long endUs,
                        long preemptions, long kvAllocationFailures, double prefixHitRate, double preemptedPrefixHitRate,
                        long eventsProcessed,
                        long skippedTraceLines, long[] requestsPerInstance, long headOfLineBlocks,
                        KvTierSummary kvTiers, FitnessWeights fitness, ScalingSummary scaling, PdSummary pd,
                        SpecDecodeSummary specDecode) {
}
