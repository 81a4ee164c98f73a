package io.servesim.latency;

import com.fasterxml.jackson.databind.JsonNode;
import io.servesim.config.ConfigException;
import io.servesim.config.ConfigNode;
import java.util.ArrayList;
import java.util.List;

/**
 * Binds a table of GPU rows in the format of the bundled {@code gpus.yaml} ({@code gpus: [{name, aliases,
 * bf16_tflops, ...}]}) into {@link GpuSpec}s, strictly: every datasheet field is required (except
 * {@code aliases} and {@code fp8_tflops}, 0 for a GPU without FP8 tensor cores), in its unit and range; a price
 * ({@code usd_per_gpu_hour}) is optional and, when given, needs its {@code price_source},
 * and unknown keys are refused listing the valid ones (a BLIS {@code hardware_config.json} row's
 * {@code mfu_prefill} is not a datasheet number). Problems name the row and key
 * ({@code gpus[0].bf16_tflops}) under the prefix the caller gives.
 */
final class GpuTable {
    /** The keys of a row, in the order {@code gpus.yaml} documents them. */
    static final List<String> KEYS = List.of("name", "aliases", "bf16_tflops", "fp8_tflops", "memory_bandwidth_tbps",
            "memory_gib", "sm_count", "all_reduce_gbps", "host_link_gbps", "source", "usd_per_gpu_hour", "price_source");

    private GpuTable() {
    }

    /**
     * The rows of {@code root}.
     *
     * @param prefix prepended to every problem's path (a file and a space, e.g. {@code /x/gpus.yaml })
     * @throws ConfigException listing every problem
     */
    static List<GpuSpec> read(JsonNode root, String prefix) {
        ConfigNode table = ConfigNode.root(root);
        List<GpuSpec> gpus = new ArrayList<>();
        if (!table.raw().path("gpus").isArray()) {
            table.problem("gpus", "required: a list of GPU rows ({" + String.join(", ", KEYS) + "})");
        }
        for (ConfigNode row : table.list("gpus")) {
            GpuSpec gpu = row(row);
            if (gpu != null) {
                gpus.add(gpu);
            }
        }
        table.finish();
        if (table.hasProblems()) {
            try {
                table.throwIfProblems();
            } catch (ConfigException e) {
                throw new ConfigException(e.problems().stream()
                        .map(p -> new ConfigException.Problem(prefix + p.path(), p.message())).toList());
            }
        }
        return gpus;
    }

    private static GpuSpec row(ConfigNode row) {
        String name = text(row, "name", "the GPU's name, e.g. MI300X");
        List<String> aliases = new ArrayList<>();
        JsonNode a = row.rawValue("aliases");
        if (a != null && !a.isNull()) {
            if (!a.isArray()) {
                row.problem(row.pathOf("aliases"), "must be a list of names");
            } else {
                for (int i = 0; i < a.size(); i++) {
                    if (!a.get(i).isValueNode() || a.get(i).isNull() || a.get(i).asText().isBlank()) {
                        row.problem(row.pathOf("aliases") + "[" + i + "]", "must be a non-empty name");
                    } else {
                        aliases.add(a.get(i).asText());
                    }
                }
            }
        }
        double bf16 = positive(row, "bf16_tflops", 100_000, "peak dense BF16 tensor TFLOPS (FP32 accumulate, no sparsity)");
        double fp8 = row.doubleValue("fp8_tflops", 0, 0, 100_000);
        double bandwidth = positive(row, "memory_bandwidth_tbps", 100, "peak memory bandwidth, TB/s (1e12 bytes/s)");
        double memory = positive(row, "memory_gib", 10_000, "device memory, GiB");
        int sms = (int) row.longValue("sm_count", 0, 1, 10_000);
        if (!row.has("sm_count")) {
            row.problem(row.pathOf("sm_count"), "required: streaming multiprocessors (an integer from the GPU's whitepaper or datasheet)");
        }
        double allReduce = positive(row, "all_reduce_gbps", 100_000,
                "effective all-reduce bandwidth per GPU, GB/s (bundled rows use 0.67 x the link's per-direction bandwidth)");
        double hostLink = positive(row, "host_link_gbps", 100_000, "host link bandwidth per direction, GB/s (PCIe Gen5 x16 = 64)");
        String source = text(row, "source", "where the numbers come from (datasheet, whitepaper)");
        GpuSpec.Price price = price(row);
        row.finish();
        if (name == null || source == null || bf16 <= 0 || bandwidth <= 0 || memory <= 0 || sms < 1 || allReduce <= 0
                || hostLink <= 0 || price == null) {
            return null;
        }
        return new GpuSpec(name, aliases, bf16, fp8, bandwidth, memory, sms, allReduce, hostLink, source, price);
    }

    /** The row's optional price and its source ({@link GpuSpec.Price#NONE} without one); null (a problem recorded) when bad. */
    private static GpuSpec.Price price(ConfigNode row) {
        if (!row.has("usd_per_gpu_hour")) {
            if (row.has("price_source")) {
                row.rawValue("price_source");
                row.problem(row.pathOf("price_source"), "only with usd_per_gpu_hour (the price it is the source of)");
                return null;
            }
            return GpuSpec.Price.NONE;
        }
        double usd = positive(row, "usd_per_gpu_hour", 10_000, "on-demand price of one GPU per hour, US dollars");
        String source = text(row, "price_source", "where usd_per_gpu_hour comes from (a price list or survey, with its date)");
        return usd > 0 && source != null ? new GpuSpec.Price(usd, source) : null;
    }

    private static String text(ConfigNode row, String key, String what) {
        String v = row.stringValue(key, null);
        if (v == null || v.isBlank()) {
            row.problem(row.pathOf(key), "required: " + what);
            return null;
        }
        return v;
    }

    /** A required number in (0, max]; 0 (a problem recorded) when missing or out of range. */
    private static double positive(ConfigNode row, String key, double max, String what) {
        JsonNode v = row.rawValue(key);
        if (v == null) {
            row.problem(row.pathOf(key), "required: " + what);
            return 0;
        }
        if (!v.isNumber() || !(v.asDouble() > 0 && v.asDouble() <= max)) {
            row.problem(row.pathOf(key), "must be a number in (0, " + (long) max + "] (" + what + "), got " + v);
            return 0;
        }
        return v.asDouble();
    }
}
