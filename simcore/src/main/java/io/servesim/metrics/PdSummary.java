package io.servesim.metrics;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The deployment's architecture and, for P/D disaggregation, its pools and KV transfers; goodput per
 * GPU for either architecture (goodput as DistServe (OSDI'24) defines it: completed requests per second
 * meeting both their TTFT and TPOT targets, which {@code goodput_rps} is whenever the SLO classes set
 * TTFT and TPOT targets only, as the built-in realtime, interactive and standard classes do).
 *
 * @param architecture      {@code aggregated} or {@code pd}
 * @param gpus              GPUs of the deployment (replicas x TP, both pools for P/D)
 * @param goodputPerGpuRps  goodput_rps / gpus
 * @param decider           the P/D decider ({@code always}, {@code never}, {@code prefix-threshold}); empty when aggregated
 * @param remote            requests whose prefill ran on the prefill pool
 * @param local             requests the decode pool served whole
 * @param prefill           the prefill pool (zero replicas when aggregated)
 * @param decode            the decode pool (zero replicas when aggregated)
 * @param transfers         completed KV transfers
 * @param transferBytes     their bytes (every GPU stream)
 * @param transferMs        per transfer, blocks reserved to KV arrived (latency included)
 * @param bandwidthWaitMs   per transfer, its bytes' time beyond their time alone on the link
 * @param blockWaits        transfers that waited in their decode instance's queue for blocks
 * @param blockWaitMs       per started transfer, its prefill's end to its start
 */
public record PdSummary(String architecture, int gpus, double goodputPerGpuRps, String decider, long remote, long local,
                        Pool prefill, Pool decode, long transfers, long transferBytes, Distribution transferMs,
                        Distribution bandwidthWaitMs, long blockWaits, Distribution blockWaitMs) {
    /**
     * One pool.
     *
     * @param replicas          engines
     * @param gpus              replicas x TP
     * @param busyUs            engine-busy microseconds summed over its replicas
     * @param utilization       busy time / (replicas x run duration); NaN without replicas
     * @param kvUtilizationMean step-time-weighted mean share of KV blocks in use; NaN without steps
     * @param queueingMs        prefill: wait queue to first step; decode: KV arrival (or enqueue, for a
     *                          request it served whole) to its first step there
     */
    public record Pool(int replicas, int gpus, long busyUs, double utilization, double kvUtilizationMean,
                       Distribution queueingMs) {
        public static final Pool NONE = new Pool(0, 0, 0, Double.NaN, Double.NaN, Distribution.EMPTY);

        Pool withDuration(double durationS) {
            double u = replicas == 0 || durationS <= 0 ? Double.NaN : busyUs / 1e6 / (replicas * durationS);
            return new Pool(replicas, gpus, busyUs, u, kvUtilizationMean, queueingMs);
        }

        Map<String, Object> toMap() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("replicas", replicas);
            m.put("gpus", gpus);
            m.put("busy_s", busyUs / 1e6);
            m.put("utilization", utilization);
            m.put("kv_utilization_mean", kvUtilizationMean);
            m.put("queueing_ms", queueingMs.toMap());
            return m;
        }
    }

    /** An aggregated deployment of {@code gpus} GPUs. */
    public static PdSummary aggregated(int gpus) {
        return new PdSummary("aggregated", gpus, Double.NaN, "", 0, 0, Pool.NONE, Pool.NONE, 0, 0, Distribution.EMPTY,
                Distribution.EMPTY, 0, Distribution.EMPTY);
    }

    /** With the run's goodput and duration known: goodput per GPU, pool utilizations. */
    PdSummary finish(double goodputRps, double durationS) {
        return new PdSummary(architecture, gpus, gpus == 0 ? Double.NaN : goodputRps / gpus, decider, remote, local,
                prefill.withDuration(durationS), decode.withDuration(durationS), transfers, transferBytes, transferMs,
                bandwidthWaitMs, blockWaits, blockWaitMs);
    }

    /** Stable key order for JSON output. */
    public Map<String, Object> toMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("architecture", architecture);
        m.put("gpus", gpus);
        m.put("goodput_per_gpu_rps", goodputPerGpuRps);
        m.put("decider", decider);
        m.put("remote", remote);
        m.put("local", local);
        m.put("prefill", prefill.toMap());
        m.put("decode", decode.toMap());
        Map<String, Object> t = new LinkedHashMap<>();
        t.put("count", transfers);
        t.put("bytes", transferBytes);
        t.put("transfer_ms", transferMs.toMap());
        t.put("bandwidth_wait_ms", bandwidthWaitMs.toMap());
        t.put("decode_block_waits", blockWaits);
        t.put("decode_block_wait_ms", blockWaitMs.toMap());
        m.put("transfers", t);
        return m;
    }
}
