package io.servesim.disagg;

import io.servesim.engine.EngineConfig;
import io.servesim.latency.LatencySpec;

/**
 * One pool of a P/D deployment as bound ({@code deployment.pd.prefill} or {@code deployment.pd.decode}):
 * its replicas, their GPU, TP and latency model (the deployment's unless the pool sets them; the model
 * is the deployment's) and their engine settings ({@code engine:} with the pool's {@code engine:} keys
 * laid over it, so a tiered KV cache or another batch size can be per pool).
 *
 * @param name     {@code prefill} or {@code decode}
 * @param replicas engine replicas of the pool
 * @param latency  model, GPU, TP and latency model of its replicas
 * @param engine   vLLM limits of its replicas (KV capacity resolved later, per pool)
 */
public record PoolSpec(String name, int replicas, LatencySpec latency, EngineConfig engine) {
    public PoolSpec {
        if (replicas < 1) {
            throw new IllegalArgumentException("a pool needs a replica: " + replicas);
        }
    }

    /** Config path of the pool. */
    public String path() {
        return "deployment.pd." + name;
    }
}
