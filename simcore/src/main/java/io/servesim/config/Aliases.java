package io.servesim.config;

import java.util.List;
import java.util.Map;

/**
 * The other names a config key may be written under, one list per key: vLLM's engine-argument names
 * ({@code max_num_running_reqs}, {@code max_num_scheduled_tokens}: vLLM's {@code SchedulerConfig}), the
 * spellings of BLIS's flags ({@code num_instances}, {@code tensor_parallelism}), BLIS's {@code horizon} (its
 * WorkloadSpec's name of a horizon in microseconds) and a unit-less
 * {@code kv_transfer_base_latency}. The settings catalog declares the same aliases beside each setting
 * ({@code io.servesim.run.SettingsCatalog}; AliasesTest checks the two agree), and the binders read a key with them,
 * which refuses a setting written under two names; an override of a key ({@link Overrides#set}) replaces
 * the setting whatever name the config wrote it under.
 */
public final class Aliases {
    private static final Map<String, List<String>> OF = Map.of(
            "max_num_seqs", List.of("max_num_running_reqs"),
            "max_num_batched_tokens", List.of("max_num_scheduled_tokens"),
            "kv_transfer_base_latency_us", List.of("kv_transfer_base_latency"),
            "instances", List.of("num_instances"),
            "tp", List.of("tensor_parallelism"),
            "horizon_us", List.of("horizon"));

    private Aliases() {
    }

    /** The keys that have aliases. */
    public static java.util.Set<String> keys() {
        return OF.keySet();
    }

    /** The aliases of {@code key} (empty for a key without any). */
    public static String[] of(String key) {
        return OF.getOrDefault(key, List.of()).toArray(String[]::new);
    }

    /** {@code key} and its aliases, or the key and aliases of the setting {@code key} is an alias of. */
    static List<String> names(String key) {
        for (Map.Entry<String, List<String>> e : OF.entrySet()) {
            if (e.getKey().equals(key) || e.getValue().contains(key)) {
                return java.util.stream.Stream.concat(java.util.stream.Stream.of(e.getKey()), e.getValue().stream()).toList();
            }
        }
        return List.of(key);
    }
}
