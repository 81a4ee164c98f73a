package io.servesim.latency;

import com.fasterxml.jackson.databind.JsonNode;
import io.servesim.config.ConfigException;
import io.servesim.config.ConfigNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Binds a table of GPU rows in the format of the bundled {@code gpus.yaml} ({@code gpus: [{name, aliases,
 * bf16_tflops, ...}]}) into {@link GpuSpec}s, strictly: every datasheet field is required (except
 * {@code aliases} and {@code fp8_tflops}, 0 for a GPU without FP8 tensor cores), in its unit and range; a price
 * ({@code usd_per_gpu_hour}) is optional and, when given, needs its {@code price_source},
 * and unknown keys are refused listing the valid ones (a BLIS {@code hardware_config.json} row's
 * {@code mfu_prefill} is not a datasheet number). Problems name the row and key
 * ({@code gpus[0].bf16_tflops}, {@code gpus[1].link.lanes}) under the prefix the caller gives.
 *
 * <p>The interconnect ({@link Interconnect}) is three keys: {@code link} ({@code {type: nvlink, generation,
 * bandwidth_gbps, latency_us}} or {@code {type: pcie, generation, lanes, p2p, latency_us}}: a PCIe link's bandwidth
 * follows from its generation and lanes, an NVLink is always peer-to-peer; either may add {@code measured_bus_gbps}, the
 * bus bandwidth NCCL was measured to reach between two of the GPUs, and {@code measured_collectives}, NCCL collectives
 * timed between a number of them, {@link MeasuredCollectivesRow}), {@code gpus_per_node} and {@code network}
 * ({@code {bandwidth_gbps, latency_us}}, per GPU).
 */
final class GpuTable {
    /** The keys of a row, in the order {@code gpus.yaml} documents them. */
    static final List<String> KEYS = List.of("name", "aliases", "bf16_tflops", "fp8_tflops", "memory_bandwidth_tbps",
            "memory_gib", "sm_count", "compute_capability", "boost_clock_mhz", "link", "gpus_per_node", "network", "host_link_gbps", "source", "usd_per_gpu_hour",
            "price_source");
    /** The keys of {@code link} for each type. */
    static final List<String> NVLINK_KEYS = List.of("type", "generation", "bandwidth_gbps", "latency_us");
    static final List<String> PCIE_KEYS = List.of("type", "generation", "lanes", "p2p", "latency_us");

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
        GpuSpec.ComputeCapability cc = computeCapability(row);
        double clock = boostClock(row, cc);
        Interconnect interconnect = interconnect(row);
        double hostLink = positive(row, "host_link_gbps", 100_000, "host link bandwidth per direction, GB/s (PCIe Gen5 x16 = 64)");
        String source = text(row, "source", "where the numbers come from (datasheet, whitepaper)");
        GpuSpec.Price price = price(row);
        row.finish();
        if (name == null || source == null || bf16 <= 0 || bandwidth <= 0 || memory <= 0 || sms < 1 || cc == null
                || clock < 0 || interconnect == null || hostLink <= 0 || price == null) {
            return null;
        }
        return new GpuSpec(name, aliases, bf16, fp8, bandwidth, memory, sms, cc, clock, interconnect, hostLink, source, price);
    }

    /** The required {@code compute_capability}, {@code major.minor} as a number or text; null (a problem recorded) when bad. */
    private static GpuSpec.ComputeCapability computeCapability(ConfigNode row) {
        JsonNode v = row.rawValue("compute_capability");
        String what = ": the CUDA compute capability, major.minor (NVIDIA's CUDA GPUs list: 8.0 A100, 8.9 Ada, 9.0 Hopper,"
                + " 10.0 B200, 12.0 RTX Blackwell); vLLM picks its attention kernel by it";
        if (v == null) {
            row.problem(row.pathOf("compute_capability"), "required" + what);
            return null;
        }
        String text = v.isNumber() || v.isTextual() ? v.asText().trim() : "";
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("([1-9][0-9]?)\\.([0-9])").matcher(text);
        if (!m.matches()) {
            row.problem(row.pathOf("compute_capability"), "must be major.minor, e.g. 8.9, got " + v + what);
            return null;
        }
        int major = Integer.parseInt(m.group(1));
        if (major < 7 || major > 12) {
            row.problem(row.pathOf("compute_capability"), "must be in [7.0, 12.9] (vLLM runs on compute capability 7.0 and"
                    + " above; the newest NVIDIA GPUs are 12.x), got " + v + what);
            return null;
        }
        return new GpuSpec.ComputeCapability(major, Integer.parseInt(m.group(2)));
    }

    /**
     * {@code boost_clock_mhz}: required where vLLM runs FlashAttention-2 ({@link AttentionBackend}), whose per-SM cycles the
     * roofline prices; optional elsewhere. 0 when absent, -1 (a problem recorded) when bad.
     */
    private static double boostClock(ConfigNode row, GpuSpec.ComputeCapability cc) {
        row.declare("boost_clock_mhz");
        boolean needed = cc != null && AttentionBackend.of(cc) == AttentionBackend.FLASH_ATTENTION_2;
        if (!row.has("boost_clock_mhz") && !needed) {
            return 0;
        }
        double mhz = positive(row, "boost_clock_mhz", 10_000, "the boost clock, MHz, at which the datasheet's peaks are"
                + " stated" + (needed ? " (compute capability " + cc + ": vLLM runs FlashAttention-2 there, whose mixed-step"
                + " tiles the roofline prices in SM cycles)" : ""));
        return mhz > 0 ? mhz : -1;
    }

    /** {@code link}, {@code gpus_per_node} and {@code network}; null (problems recorded) when any is missing or bad. */
    private static Interconnect interconnect(ConfigNode row) {
        boolean ok = true;
        ConfigNode link = row.child("link");
        Interconnect.LinkType type = null;
        int generation = 0;
        double linkGBps = 0;
        int lanes = 0;
        boolean p2p = true;
        double linkLatency = -1;
        double measuredBus = 0;
        MeasuredCollectives collectives = MeasuredCollectives.NONE;
        if (!link.present()) {
            row.problem(row.pathOf("link"), "required: the intra-node link, {" + String.join(", ", NVLINK_KEYS)
                    + "} for NVLink (type: nvlink) or {" + String.join(", ", PCIE_KEYS) + "} for PCIe (type: pcie), either"
                    + " with an optional measured_bus_gbps and measured_collectives");
            ok = false;
        } else {
            String t = link.choice("type", null, List.of("nvlink", "pcie"));
            if (t == null) {
                if (!link.has("type")) {
                    link.problem(link.pathOf("type"), "required: nvlink or pcie");
                }
                link.declare("generation", "bandwidth_gbps", "lanes", "p2p", "latency_us", "measured_bus_gbps",
                        MeasuredCollectivesRow.KEY);
                ok = false;
            } else {
                type = t.equals("nvlink") ? Interconnect.LinkType.NVLINK : Interconnect.LinkType.PCIE;
                generation = (int) link.longValue("generation", 0, type.minGeneration(), type.maxGeneration());
                if (!link.has("generation")) {
                    link.problem(link.pathOf("generation"), "required: the " + (type == Interconnect.LinkType.NVLINK ? "NVLink"
                            : "PCIe") + " generation, " + type.minGeneration() + "-" + type.maxGeneration());
                }
                ok &= generation > 0;
                if (type == Interconnect.LinkType.NVLINK) {
                    linkGBps = positive(link, "bandwidth_gbps", 10_000, "the GPU's NVLink bandwidth per direction over all its"
                            + " links, GB/s (H100 SXM: 450, half the datasheet's 900 GB/s bidirectional)");
                    ok &= linkGBps > 0;
                    refuse(link, "lanes", "applies to type: pcie only (an NVLink's bandwidth is bandwidth_gbps)");
                    refuse(link, "p2p", "applies to type: pcie only (GPUs on NVLink always reach each other's memory)");
                } else {
                    JsonNode l = link.rawValue("lanes");
                    if (l == null || !l.canConvertToInt() || !l.isIntegralNumber() || !Interconnect.PCIE_LANES.contains(l.asInt())) {
                        link.problem(link.pathOf("lanes"), (l == null ? "required" : "must be one of " + Interconnect.PCIE_LANES
                                + ", got " + l) + ": the PCIe lanes of the GPU's link (x16 for every bundled card)");
                        ok = false;
                    } else {
                        lanes = l.asInt();
                    }
                    JsonNode p = link.rawValue("p2p");
                    if (p == null || !p.isBoolean()) {
                        link.problem(link.pathOf("p2p"), (p == null ? "required" : "must be true or false, got " + p)
                                + ": whether the GPUs reach each other's memory over PCIe (false: through host memory,"
                                + " as GeForce cards; vLLM's custom all-reduce then stays off)");
                        ok = false;
                    } else {
                        p2p = p.asBoolean();
                    }
                    refuse(link, "bandwidth_gbps", "is derived from generation and lanes for type: pcie (Gen5 x16: 63.0 GB/s"
                            + " per direction); remove it");
                }
                linkLatency = nonNegative(link, "latency_us", 1_000, "one-way latency of a small write to a peer, us (NCCL's"
                        + " per-hop NVLink / PCIe latency: 0.6 / 1.0)");
                ok &= linkLatency >= 0;
                // NaN when the link's own keys are bad: the measured values are then checked on their own
                double rate = type == Interconnect.LinkType.NVLINK ? (linkGBps > 0 ? linkGBps : Double.NaN)
                        : lanes > 0 && generation > 0 ? Interconnect.pcieGBps(generation, lanes) : Double.NaN;
                measuredBus = measuredBus(link, rate);
                ok &= measuredBus >= 0;
                collectives = MeasuredCollectivesRow.read(link, rate);
                ok &= collectives != null;
            }
            link.finish();
        }
        int perNode = (int) row.longValue("gpus_per_node", 0, 1, 1024);
        if (!row.has("gpus_per_node")) {
            row.problem(row.pathOf("gpus_per_node"), "required: GPUs in one server (8 in an HGX board); a tensor-parallel"
                    + " group larger than this spans servers over the network");
        }
        ok &= perNode > 0;
        if (collectives != null && perNode > 0 && collectives.ranks() > perNode) {
            row.problem(row.pathOf("link") + "." + MeasuredCollectivesRow.KEY + ".ranks", collectives.ranks() + " GPUs, more"
                    + " than the " + perNode + " of a node (gpus_per_node): the link's collectives are timed within one"
                    + " node; valid: 2-" + perNode);
            ok = false;
        }
        ConfigNode net = row.child("network");
        double netGBps = 0;
        double netLatency = -1;
        if (!net.present()) {
            row.problem(row.pathOf("network"), "required: the inter-node network per GPU, {bandwidth_gbps, latency_us}"
                    + " (a DGX H100 has one 400 Gb/s NIC per GPU: bandwidth_gbps: 50)");
            ok = false;
        } else {
            netGBps = positive(net, "bandwidth_gbps", 10_000, "the network bandwidth per GPU and direction, GB/s (400 Gb/s = 50)");
            netLatency = nonNegative(net, "latency_us", 1_000, "one-way latency of the network, us");
            net.finish();
            ok &= netGBps > 0 && netLatency >= 0;
        }
        if (!ok) {
            return null;
        }
        Interconnect built = type == Interconnect.LinkType.NVLINK
                ? Interconnect.nvlink(generation, linkGBps, linkLatency, perNode, netGBps, netLatency)
                : Interconnect.pcie(generation, lanes, p2p, linkLatency, perNode, netGBps, netLatency);
        return (measuredBus > 0 ? built.withMeasuredBus(measuredBus) : built).withMeasuredCollectives(collectives);
    }

    /**
     * The optional {@code measured_bus_gbps}: in (0, the link's own rate per direction], 0 when absent, -1 (a problem
     * recorded) when out of range: NCCL cannot move more over a link than the link carries. With the link's rate
     * unknown ({@code linkGBps} NaN: its own keys are bad) only positive is checked.
     */
    private static double measuredBus(ConfigNode link, double linkGBps) {
        link.declare("measured_bus_gbps");
        if (!link.has("measured_bus_gbps")) {
            return 0;
        }
        JsonNode v = link.rawValue("measured_bus_gbps");
        if (Double.isNaN(linkGBps)) {
            if (v == null || !v.isNumber() || !(v.asDouble() > 0)) {
                link.problem(link.pathOf("measured_bus_gbps"), "must be a positive number of GB/s, got " + v
                        + ": the bus bandwidth NCCL was measured to reach between two of these GPUs");
            }
            return -1; // the link's own problem is reported; the value cannot be bounded without the link's rate
        }
        if (v == null || !v.isNumber() || !(v.asDouble() > 0) || v.asDouble() > linkGBps) {
            link.problem(link.pathOf("measured_bus_gbps"), String.format(Locale.ROOT, "must be a number in (0, %.1f] GB/s,"
                    + " got %s: the bus bandwidth NCCL was measured to reach between two of these GPUs (nccl-tests"
                    + " busbw at large messages), at most what the link itself carries per direction", linkGBps, v));
            return -1;
        }
        return v.asDouble();
    }

    /** A key the other link type has: refused with why, so it is not an unknown key. */
    private static void refuse(ConfigNode node, String key, String why) {
        node.declare(key);
        if (node.has(key)) {
            node.problem(node.pathOf(key), why);
        }
    }

    /** A required number in [0, max]; -1 (a problem recorded) when missing or out of range. */
    private static double nonNegative(ConfigNode node, String key, double max, String what) {
        JsonNode v = node.rawValue(key);
        if (v == null) {
            node.problem(node.pathOf(key), "required: " + what);
            return -1;
        }
        if (!v.isNumber() || !(v.asDouble() >= 0 && v.asDouble() <= max)) {
            node.problem(node.pathOf(key), "must be a number in [0, " + (long) max + "] (" + what + "), got " + v);
            return -1;
        }
        return v.asDouble();
    }

    /** The row's optional price and its source ({@link GpuSpec.Price#NONE} without one); null (a problem recorded) when bad. */
    private static GpuSpec.Price price(ConfigNode row) {
        row.declare("usd_per_gpu_hour", "price_source"); // optional: an unknown key's message lists them too
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
