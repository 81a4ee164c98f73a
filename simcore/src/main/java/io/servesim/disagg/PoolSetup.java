package io.servesim.disagg;

import io.servesim.engine.EngineConfig;
import io.servesim.latency.LatencyModel;

/**
 * One pool of a P/D deployment, resolved ({@code io.servesim.run.RunPlan}): engine limits with KV
 * capacity settled, the step-time model of its GPU and TP, and the KV bytes one of its GPUs holds per
 * token (the roofline model's count: layers x 2 x KV heads on that GPU x head size x dtype bytes).
 *
 * @param name                  {@code prefill} or {@code decode}
 * @param replicas              engine replicas
 * @param tp                    GPUs per replica
 * @param engine                resolved engine limits
 * @param latency               step-time model
 * @param kvBytesPerTokenPerGpu KV bytes per token on one GPU of a replica
 */
public record PoolSetup(String name, int replicas, int tp, EngineConfig engine, LatencyModel latency,
                        long kvBytesPerTokenPerGpu) {
    public PoolSetup {
        if (replicas < 1 || tp < 1 || kvBytesPerTokenPerGpu <= 0 || !engine.isResolved()) {
            throw new IllegalArgumentException("invalid pool " + name);
        }
    }

    public int gpus() {
        return replicas * tp;
    }
}
