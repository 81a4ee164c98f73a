package io.servesim.metrics;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * The deployment's architecture and, for P/D disaggregation, its pools and KV transfers; goodput per
 * GPU for either architecture (goodput as DistServe (OSDI'24) defines it: completed requests per second
 * meeting both their TTFT and TPOT targets, which {@code goodput_rps} is whenever the SLO classes set
 * TTFT and TPOT targets only, as the built-in realtime, interactive and standard classes do). The {@code pd} section
 * of the run summary JSON; the metric catalog ({@link MetricCatalog}) names and documents each value.
 *
 * @param architecture      {@code aggregated} or {@code pd}
 * @param gpus              GPUs of the deployment (replicas x TP, both pools for P/D; under autoscaling the
 *                          peak replicas x TP)
 * @param meanGpus          GPUs held on average over the run: {@code gpus}, or under autoscaling the mean
 *                          replicas x TP
 * @param goodputPerGpuRps  goodput_rps / meanGpus (under autoscaling, good requests per GPU-second held)
 * @param decider           the P/D decider ({@code always}, {@code never}, {@code prefix-threshold}); empty when aggregated
 * @param remote            requests whose prefill ran on the prefill pool
 * @param local             requests routed whole to the decode pool (by the decider, or refused there before prefill)
 * @param prefill           the prefill pool (zero replicas when aggregated)
 * @param decode            the decode pool (zero replicas when aggregated)
 * @param transfers         completed KV transfers
 * @param transferBytes     their bytes (every GPU stream)
 * @param transferMs        per transfer, blocks reserved to KV arrived (latency included)
 * @param bandwidthWaitMs   per transfer, its bytes' time beyond their time alone on the link
 * @param blockWaits        transfers that waited in their decode instance's queue for blocks
 * @param blockWaitMs       per started transfer, its prefill's end to its start
 */
public record PdSummary(String architecture, int gpus, double meanGpus, double goodputPerGpuRps, String decider, long remote, long local,
                        Pool prefill, Pool decode, long transfers, long transferBytes, Distribution transferMs,
                        Distribution bandwidthWaitMs, long blockWaits, Distribution blockWaitMs) {
    /**
     * One pool.
     *
     * @param replicas            engines
     * @param gpus                replicas x TP
     * @param engineKind          its engine core ({@code vllm}, {@code sglang}); empty when aggregated
     * @param latencyModel        its latency model's name ({@code blackbox}, ...); empty when aggregated
     * @param latencyDescription  its latency model, GPU and TP; empty when aggregated
     * @param totalKvBlocks       KV blocks per replica
     * @param cpuKvBlocks         CPU-tier KV blocks per replica (0: no CPU tier)
     * @param busyUs              engine-busy microseconds summed over its replicas
     * @param utilization         busy time / (replicas x run duration); NaN without replicas
     * @param kvUtilizationMean   step-time-weighted mean share of KV blocks in use; NaN without steps
     * @param queueingMs          prefill: wait queue to first step; decode: KV arrival (or enqueue, for a
     *                            request it served whole) to its first step there
     * @param requestsPerInstance requests routed to each of its replicas (its slice of the cluster's
     *                            {@code requests_per_instance}); empty until the run is finished
     */
    public record Pool(int replicas, int gpus, String engineKind, String latencyModel, String latencyDescription,
                       long totalKvBlocks, long cpuKvBlocks, long busyUs, double utilization, double kvUtilizationMean,
                       Distribution queueingMs, long[] requestsPerInstance) {
        public static final Pool NONE = new Pool(0, 0, "", "", "", 0, 0, 0, Double.NaN, Double.NaN, Distribution.EMPTY,
                new long[0]);

        /** With the run's duration and the pool's replicas' routed counts known. */
        Pool finish(double durationS, long[] routed) {
            double u = replicas == 0 || durationS <= 0 ? Double.NaN : busyUs / 1e6 / (replicas * durationS);
            return new Pool(replicas, gpus, engineKind, latencyModel, latencyDescription, totalKvBlocks, cpuKvBlocks, busyUs,
                    u, kvUtilizationMean, queueingMs, routed);
        }

        /** Value equality, the routed counts' included (a record compares arrays by identity). */
        @Override
        public boolean equals(Object o) {
            return o instanceof Pool p && replicas == p.replicas && gpus == p.gpus && engineKind.equals(p.engineKind)
                    && latencyModel.equals(p.latencyModel) && latencyDescription.equals(p.latencyDescription)
                    && totalKvBlocks == p.totalKvBlocks && cpuKvBlocks == p.cpuKvBlocks && busyUs == p.busyUs && Double.compare(utilization, p.utilization) == 0
                    && Double.compare(kvUtilizationMean, p.kvUtilizationMean) == 0 && queueingMs.equals(p.queueingMs)
                    && Arrays.equals(requestsPerInstance, p.requestsPerInstance);
        }

        @Override
        public int hashCode() {
            return 31 * Objects.hash(replicas, gpus, engineKind, latencyModel, latencyDescription, totalKvBlocks, cpuKvBlocks,
                    busyUs, utilization, kvUtilizationMean, queueingMs) + Arrays.hashCode(requestsPerInstance);
        }

        /**
         * The pool's breakdown in the run summary JSON ({@code pd.prefill}, {@code pd.decode}): what is not a metric of
         * the catalog ({@code prefill_replicas}, {@code prefill_utilization}, {@code prefill_queueing_ms} are).
         */
        Map<String, Object> toMap() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("gpus", gpus);
            if (replicas > 0) { // a P/D pool's own core, model, KV capacity and routed requests
                m.put("engine_kind", engineKind);
                m.put("latency_model", latencyModel);
                m.put("latency_description", latencyDescription);
                m.put("total_kv_blocks", totalKvBlocks);
                m.put("cpu_kv_blocks", cpuKvBlocks);
                m.put("requests_per_instance", SummaryJson.longs(requestsPerInstance));
                m.put("load_imbalance_cv", ClusterBreakdown.cv(requestsPerInstance));
            }
            m.put("busy_s", busyUs / 1e6);
            m.put("kv_utilization_mean", kvUtilizationMean);
            return m;
        }
    }

    /** An aggregated deployment of {@code gpus} GPUs. */
    public static PdSummary aggregated(int gpus) {
        return aggregated(gpus, gpus);
    }

    /** An aggregated fleet whose size changed over the run (autoscaling): its peak and mean GPUs. */
    public static PdSummary aggregated(int peakGpus, double meanGpus) {
        return new PdSummary("aggregated", peakGpus, meanGpus, Double.NaN, "", 0, 0, Pool.NONE, Pool.NONE, 0, 0, Distribution.EMPTY,
                Distribution.EMPTY, 0, Distribution.EMPTY);
    }

    /**
     * With the run's goodput, duration and routed counts known: goodput per GPU, pool utilizations, each pool's slice of
     * {@code requestsPerInstance} (engine ids: the prefill pool's, then the decode pool's).
     */
    PdSummary finish(double goodputRps, double durationS, long[] requestsPerInstance) {
        int p = Math.min(prefill.replicas(), requestsPerInstance.length);
        int d = Math.min(p + decode.replicas(), requestsPerInstance.length);
        return new PdSummary(architecture, gpus, meanGpus, meanGpus == 0 ? Double.NaN : goodputRps / meanGpus, decider, remote, local,
                prefill.finish(durationS, Arrays.copyOfRange(requestsPerInstance, 0, p)),
                decode.finish(durationS, Arrays.copyOfRange(requestsPerInstance, p, d)), transfers, transferBytes,
                transferMs, bandwidthWaitMs, blockWaits, blockWaitMs);
    }

    /** Whether this is a P/D deployment. */
    public boolean isPd() {
        return "pd".equals(architecture);
    }

    /**
     * The run's top-level {@code latency_model}: {@code fleet}'s (aggregated) or, under P/D, both pools' named
     * ({@code pd: prefill blackbox, decode roofline}).
     */
    public String latencyModel(String fleet) {
        return isPd() ? "pd: prefill " + prefill.latencyModel() + ", decode " + decode.latencyModel() : fleet;
    }

    /** The run's top-level {@code latency_description}: {@code fleet}'s, or under P/D both pools' descriptions. */
    public String latencyDescription(String fleet) {
        return isPd() ? "pd: prefill pool [" + prefill.latencyDescription() + "], decode pool ["
                + decode.latencyDescription() + "]" : fleet;
    }

    /**
     * The run's top-level {@code total_kv_blocks}, KV blocks per instance: {@code fleet}'s or, under P/D, the mean over
     * both pools' instances (the deployment's blocks / its instances, rounded down: equal to either pool's when they
     * match; each pool's own is under {@code pd.prefill} and {@code pd.decode}).
     */
    public long totalKvBlocks(long fleet) {
        if (!isPd()) {
            return fleet;
        }
        long blocks = prefill.replicas() * prefill.totalKvBlocks() + decode.replicas() * decode.totalKvBlocks();
        return blocks / (prefill.replicas() + decode.replicas());
    }
}
