package io.servesim.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.servesim.config.Overrides;
import io.servesim.config.StrictJson;
import io.servesim.run.PolicyBundleFile;
import io.servesim.run.PolicyKind;
import io.servesim.run.SimConfig;
import io.servesim.run.SimConfigLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import picocli.CommandLine.Option;

/**
 * Options shared by commands that load a run config: the file, {@code --set} overrides and the
 * common knobs as flags. Each flag is just an override of one config path (shown in its help), so
 * a flag can never be accepted and ignored; the workload flags follow the workload's form ({@link WorkloadFlags}:
 * applied, or refused with the reason). Precedence: file, then flags, then {@code --set}. A command
 * that mixes these in declares {@code modelTransformer = PolicyFlags.class} for the policy flags.
 */
public final class ConfigOptions {
    @Option(names = "--set", paramLabel = "PATH=VALUE", description = "Override any config value, e.g. engine.max_num_seqs=128 (repeatable).")
    List<String> sets = new ArrayList<>();

    @Option(names = "--model", description = "deployment.model: Hugging Face id, e.g. meta-llama/llama-3.1-8b-instruct")
    String model;

    @Option(names = "--hardware", description = "deployment.hardware: GPU, e.g. H100, A100-80GB, L40S")
    String hardware;

    @Option(names = "--gpus", paramLabel = "FILE", description = "deployment.gpus: GPU rows in gpus.yaml's format (datasheet"
            + " numbers) that --hardware may name; latency on them is uncalibrated")
    Path gpus;

    @Option(names = "--tp", description = "deployment.tp: tensor-parallel degree")
    Integer tp;

    @Option(names = "--latency-model", completionCandidates = LatencyKindCandidates.All.class,
            description = "deployment.latency_model: one of ${COMPLETION-CANDIDATES}")
    String latencyModel;

    @Option(names = "--seed", description = "seed")
    Long seed;

    @Option(names = "--horizon-us", description = "horizon_us: simulated time limit (0 = run until drained)")
    Long horizonUs;

    @Option(names = "--max-num-seqs", description = "engine.max_num_seqs")
    Integer maxNumSeqs;

    @Option(names = "--max-num-batched-tokens", description = "engine.max_num_batched_tokens")
    Integer maxNumBatchedTokens;

    @Option(names = "--long-prefill-token-threshold", description = "engine.long_prefill_token_threshold")
    Integer longPrefillTokenThreshold;

    @Option(names = "--max-model-len", description = "engine.max_model_len")
    Integer maxModelLen;

    @Option(names = "--block-size", description = "engine.block_size")
    Integer blockSize;

    @Option(names = "--total-kv-blocks", description = "engine.total_kv_blocks")
    Integer totalKvBlocks;

    @Option(names = "--kv-cpu-blocks", description = "engine.kv_cpu_blocks: CPU KV tier blocks per instance (0 = none)")
    Integer kvCpuBlocks;

    @Option(names = "--kv-offload-threshold", description = "engine.kv_offload_threshold: offload evicted GPU blocks"
            + " while GPU KV utilization exceeds this, in [0, 1] (default 0.9)")
    Double kvOffloadThreshold;

    @Option(names = "--kv-transfer-bandwidth", paramLabel = "GB/s", description = "engine.kv_transfer_bandwidth: GPU-CPU"
            + " KV link, GB/s (default: the GPU's PCIe x16 host link)")
    Double kvTransferBandwidth;

    @Option(names = "--kv-reload", description = "engine.kv_reload: blocking (the request waits for its CPU-tier"
            + " blocks, vLLM's OffloadingConnector) or step (the step waits, as in BLIS's tiered cache)")
    String kvReload;

    @Option(names = "--kv-reload-on-allocation-failure", description = "engine.kv_reload_on_allocation_failure:"
            + " consult the CPU tier only when a new request's GPU allocation fails (BLIS's trigger)")
    Boolean kvReloadOnAllocationFailure;

    @Option(names = "--num-instances", description = "deployment.instances: engine replicas in the cluster")
    Integer numInstances;

    @Option(names = "--architecture", description = "deployment.architecture: aggregated (one pool) or pd (prefill/decode"
            + " disaggregation: deployment.pd)")
    String architecture;

    @Option(names = "--prefill-replicas", description = "deployment.pd.prefill.replicas: prefill pool replicas (with --architecture pd)")
    Integer prefillReplicas;

    @Option(names = "--decode-replicas", description = "deployment.pd.decode.replicas: decode pool replicas (with --architecture pd)")
    Integer decodeReplicas;

    @Option(names = "--pd-decider", description = "deployment.pd.decider: always, never or prefix-threshold")
    String pdDecider;

    @Option(names = "--pd-decode-routing", paramLabel = "ROUTER", description = "deployment.pd.decode_routing: the decode"
            + " pool's router, one that reads no prefix cache (default least-loaded; e.g. round-robin)")
    String pdDecodeRouting;

    @Option(names = "--pd-prefix-threshold", paramLabel = "TOKENS", description = "deployment.pd.prefix_threshold_tokens:"
            + " the prefix-threshold decider disaggregates prompts with more uncached tokens than this (default 1000)")
    Integer pdPrefixThreshold;

    @Option(names = "--pd-transfer-latency", paramLabel = "DURATION", description = "deployment.pd.transfer.latency: fixed"
            + " cost per KV transfer, e.g. 1ms, 250us (default 0)")
    String pdTransferLatency;

    @Option(names = "--pd-transfer-bandwidth", paramLabel = "BANDWIDTH", description = "deployment.pd.transfer.bandwidth:"
            + " one KV link's bandwidth, e.g. 50GB/s, 400Gb/s (default 50GB/s)")
    String pdTransferBandwidth;

    @Option(names = "--autoscaler-enabled", description = "autoscaling.enabled: replicas come and go (autoscaling.policy or"
            + " policies.autoscale decides)")
    Boolean autoscalerEnabled;

    @Option(names = "--autoscaler-min", description = "autoscaling.min: fewest ready + starting replicas")
    Integer autoscalerMin;

    @Option(names = "--autoscaler-max", description = "autoscaling.max: most ready + starting replicas")
    Integer autoscalerMax;

    @Option(names = "--autoscaler-threshold", description = "policies.autoscale.params.scale_up (or autoscaling.policy.params.scale_up"
            + " when the config writes the policy there): the threshold policy's scale-up threshold")
    Double autoscalerThreshold;

    @Option(names = "--provisioning-delay", paramLabel = "DURATION", description = "autoscaling.provisioning_delay, e.g. 30s, 500ms, 250us")
    String provisioningDelay;

    @Option(names = "--warmup-duration", paramLabel = "DURATION", description = "autoscaling.warmup_duration, e.g. 60s")
    String warmupDuration;

    @Option(names = "--drain-policy", description = "autoscaling.drain_policy: wait, immediate or redirect")
    String drainPolicy;

    /** The policy flags given, by kind (the flags themselves are added by {@link PolicyFlags}). */
    final Map<PolicyKind<?>, String> policyNames = new LinkedHashMap<>();

    @Option(names = "--admission-latency-us", description = "cluster.admission_latency_us")
    Long admissionLatencyUs;

    @Option(names = "--routing-latency-us", description = "cluster.routing_latency_us")
    Long routingLatencyUs;

    @Option(names = "--fitness-weights", paramLabel = "KEY:W,...", description = "fitness_weights, e.g. throughput:0.5,p99_ttft:0.3,slo_attainment:0.2")
    String fitnessWeights;

    @Option(names = "--policy-config", paramLabel = "FILE", description = "PolicyBundle YAML: any policy kind of the policies: section"
            + " (each a name or {name, params}); flags override it")
    Path policyConfig;

    @Option(names = "--rate", description = "workload.aggregate_rate: requests (or sessions) per second, > 0;"
            + " refused for a trace replay (its timestamps set the arrivals)")
    Double rate;

    @Option(names = "--skip-bad-lines", description = "workload.trace.skip_bad_lines: skip malformed trace lines (counted"
            + " in the summary) instead of stopping; only for a trace replay")
    Boolean skipBadLines;

    @Option(names = "--num-requests", description = "workload.num_requests (>= 1); for a trace replay"
            + " workload.trace.max_requests: replay only its first N requests")
    Long numRequests;

    /**
     * The overrides the flags other than the workload ones ({@link WorkloadFlags}) stand for; a policy flag sets its
     * kind's policy where {@code tree} writes it ({@link PolicyKind#configPathIn}: {@code autoscaling.policy} or
     * {@code policies.autoscale}).
     */
    private List<String> overrides(JsonNode tree) {
        List<String> o = new ArrayList<>();
        add(o, "deployment.model", model);
        add(o, "deployment.hardware", hardware);
        add(o, "deployment.gpus", gpus == null ? null : gpus.toAbsolutePath().toString());
        add(o, "deployment.tp", tp);
        add(o, "deployment.latency_model", latencyModel);
        add(o, "seed", seed);
        add(o, "horizon_us", horizonUs);
        add(o, "engine.max_num_seqs", maxNumSeqs);
        add(o, "engine.max_num_batched_tokens", maxNumBatchedTokens);
        add(o, "engine.long_prefill_token_threshold", longPrefillTokenThreshold);
        add(o, "engine.max_model_len", maxModelLen);
        add(o, "engine.block_size", blockSize);
        add(o, "engine.total_kv_blocks", totalKvBlocks);
        add(o, "engine.kv_cpu_blocks", kvCpuBlocks);
        add(o, "engine.kv_offload_threshold", kvOffloadThreshold);
        add(o, "engine.kv_transfer_bandwidth", kvTransferBandwidth);
        add(o, "engine.kv_reload", kvReload);
        add(o, "engine.kv_reload_on_allocation_failure", kvReloadOnAllocationFailure);
        add(o, "deployment.instances", numInstances);
        add(o, "deployment.architecture", architecture);
        add(o, "deployment.pd.prefill.replicas", prefillReplicas);
        add(o, "deployment.pd.decode.replicas", decodeReplicas);
        add(o, "deployment.pd.decider", pdDecider);
        add(o, "deployment.pd.decode_routing", pdDecodeRouting);
        add(o, "deployment.pd.prefix_threshold_tokens", pdPrefixThreshold);
        add(o, "deployment.pd.transfer.latency", pdTransferLatency);
        add(o, "deployment.pd.transfer.bandwidth", pdTransferBandwidth);
        // with --autoscaler-threshold the autoscale policy is a mapping, so its name is set inside it
        policyNames.forEach((kind, name) -> add(o, kind == PolicyKind.AUTOSCALE && autoscalerThreshold != null
                ? kind.configPathIn(tree) + ".name" : kind.configPathIn(tree), name));
        add(o, "autoscaling.enabled", autoscalerEnabled);
        add(o, "autoscaling.min", autoscalerMin);
        add(o, "autoscaling.max", autoscalerMax);
        add(o, PolicyKind.AUTOSCALE.configPathIn(tree) + ".params.scale_up", autoscalerThreshold);
        add(o, "autoscaling.provisioning_delay", provisioningDelay);
        add(o, "autoscaling.warmup_duration", warmupDuration);
        add(o, "autoscaling.drain_policy", drainPolicy);
        add(o, "cluster.admission_latency_us", admissionLatencyUs);
        add(o, "cluster.routing_latency_us", routingLatencyUs);
        add(o, "fitness_weights", fitnessWeights);
        return o;
    }

    /**
     * Config file, then the policy bundle, then the default workload if there is none (said on {@code notes}),
     * then flags, then {@code --set}; bound strictly. The workload flags apply per the workload's final form
     * ({@link WorkloadFlags}).
     */
    SimConfig load(Path file, Consumer<String> notes) {
        Tree t = tree(file, notes);
        return t.workloadFlags().applyToFile(SimConfigLoader.bind(t.tree(), t.baseDir()), t.finalWorkload());
    }

    /**
     * The config tree as {@link #load} binds it: with every flag and {@code --set} applied (the workload flags only
     * where the workload is inline: for a workload file they apply after binding), and the folder its relative paths
     * resolve against.
     *
     * @param tree          the config
     * @param baseDir       the config file's folder (the working directory without one)
     * @param finalWorkload the {@code workload} node once every override is applied
     * @param workloadFlags the workload flags
     */
    record Tree(ObjectNode tree, Path baseDir, JsonNode finalWorkload, WorkloadFlags workloadFlags) {
    }

    /** The config tree ({@link Tree}) of {@code file} (null: none) and the flags; notes as {@link #load}'s. */
    Tree tree(Path file, Consumer<String> notes) {
        WorkloadFlags workloadFlags = new WorkloadFlags(rate, numRequests, skipBadLines);
        ObjectNode tree = file == null ? JsonNodeFactory.instance.objectNode() : StrictJson.readMapping(file);
        if (policyConfig != null) {
            PolicyBundleFile.apply(policyConfig, tree);
        }
        if (autoscalerThreshold != null) {
            policyAsMapping(tree, PolicyKind.AUTOSCALE);
        }
        if (WorkloadFlags.addDefaultIfAbsent(tree)) {
            notes.accept("no workload in the config: " + WorkloadFlags.DEFAULT_WORKLOAD_TEXT);
        }
        ObjectNode withSets = tree.deepCopy();
        sets.forEach(s -> Overrides.apply(withSets, s));
        JsonNode finalWorkload = withSets.get("workload");
        List<String> all = overrides(tree);
        all.addAll(workloadFlags.overrides(finalWorkload));
        all.addAll(sets);
        for (String o : all) {
            Overrides.apply(tree, o);
        }
        Path baseDir = file == null ? Path.of("") : file.toAbsolutePath().getParent();
        return new Tree(tree, baseDir, finalWorkload, workloadFlags);
    }

    /**
     * The kind's policy, where {@code tree} writes it ({@link PolicyKind#configPathIn}), as {@code {name, params}} (a
     * bare name, or the default when absent), so a param can be set.
     */
    private static void policyAsMapping(ObjectNode tree, PolicyKind<?> kind) {
        String[] path = kind.configPathIn(tree).split("\\.");
        JsonNode section = tree.get(path[0]);
        ObjectNode p = section instanceof ObjectNode o ? o : tree.putObject(path[0]);
        JsonNode v = p.get(path[1]);
        if (v == null || v.isNull()) {
            p.putObject(path[1]).put("name", kind.defaultSpec().name());
        } else if (v.isTextual()) {
            p.putObject(path[1]).put("name", v.asText());
        }
    }

    private static void add(List<String> out, String path, Object value) {
        if (value != null) {
            String v = value instanceof String s ? quote(s) : value.toString();
            out.add(path + "=" + v);
        }
    }

    /** YAML-quotes a string so values like "on" or "1e3" stay strings. */
    private static String quote(String s) {
        return "'" + s.replace("'", "''") + "'";
    }
}
