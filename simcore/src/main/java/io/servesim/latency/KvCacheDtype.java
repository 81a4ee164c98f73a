package io.servesim.latency;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * How the KV cache stores its elements, as vLLM's {@code --kv-cache-dtype} (CacheConfig {@code cache_dtype},
 * {@code vllm/config/cache.py}): {@code auto} in the model's dtype, {@code fp8} (vLLM's alias of {@code fp8_e4m3})
 * and {@code fp8_e5m2} in one byte per element. An fp8 cache holds twice the tokens of a bf16 one in the same memory,
 * and a decode step reads half the KV bytes.
 */
public enum KvCacheDtype {
    AUTO("auto", 0), FP8("fp8", 1), FP8_E4M3("fp8_e4m3", 1), FP8_E5M2("fp8_e5m2", 1);

    private final String configName;
    private final int bytes;

    KvCacheDtype(String configName, int bytes) {
        this.configName = configName;
        this.bytes = bytes;
    }

    public String configName() {
        return configName;
    }

    /** Bytes per element, or 0 for the model's own dtype. */
    public int bytes() {
        return bytes;
    }

    /** The names vLLM accepts that servesim models, in documentation order. */
    public static List<String> names() {
        return Arrays.stream(values()).map(KvCacheDtype::configName).toList();
    }

    public static Optional<KvCacheDtype> find(String name) {
        return Arrays.stream(values()).filter(d -> d.configName.equals(name)).findFirst();
    }
}
