package io.servesim.engine;

/**
 * Block-hash events of one KV tier (the GPU cache, {@link KvCache#setListener}, or its CPU tier,
 * {@link KvOffload#setListener}) for a routing-visible prefix index (NVIDIA Dynamo's KV events).
 */
public interface KvBlockListener {
    /** {@code hash} became hit-able at this instance. */
    void stored(long hash);

    /** {@code hash} was evicted from this instance. */
    void removed(long hash);
}
