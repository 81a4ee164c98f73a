package io.servesim.latency;

/**
 * The attention kernel vLLM runs on a GPU, chosen by its compute capability as vLLM's CUDA platform chooses it
 * ({@code vllm/platforms/cuda.py}, {@code _get_backend_priorities}: FlashInfer first on compute capability 10.x, else
 * FlashAttention; {@code vllm/v1/attention/backends/fa_utils.py}, {@code get_flash_attn_version}: FlashAttention-3 on 9.0,
 * FlashAttention-2 on the other capabilities from 8.0 on). Only the kind matters to the roofline: how a decode that rides
 * beside a prefill chunk is priced ({@link RooflineModel}).
 */
public enum AttentionBackend {
    /** FlashAttention-2 (8.x Ampere and Ada, 12.x Blackwell RTX): one 64-row query tile per decode and query head in a mixed batch. */
    FLASH_ATTENTION_2,
    /** FlashAttention-3 (9.0 Hopper): a KV head's query heads packed into one tile, its loads overlapping its MMAs. */
    FLASH_ATTENTION_3,
    /** FlashInfer (10.x Blackwell data-center) and the fallbacks below 8.0. */
    OTHER;

    /** How a description names it: {@code FlashAttention-3}. */
    public String label() {
        return switch (this) {
            case FLASH_ATTENTION_2 -> "FlashAttention-2";
            case FLASH_ATTENTION_3 -> "FlashAttention-3";
            case OTHER -> "FlashInfer or another backend (mixed-step tiles on top of the KV reads)";
        };
    }

    /** The kernel vLLM runs on a GPU of compute capability {@code cc}. */
    public static AttentionBackend of(GpuSpec.ComputeCapability cc) {
        return switch (cc.major()) {
            case 8, 12 -> FLASH_ATTENTION_2;
            case 9 -> FLASH_ATTENTION_3;
            default -> OTHER;
        };
    }
}
