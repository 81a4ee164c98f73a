package io.servesim.cli;

import io.servesim.config.SimConfig;
import io.servesim.config.SimConfigLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;

/**
 * Options shared by commands that load a run config: the file, {@code --set} overrides and the
 * common knobs as flags. Each flag is just an override of one config path (shown in its help), so
 * a flag can never be accepted and ignored. Precedence: file, then flags, then {@code --set}.
 */
public final class ConfigOptions {
    @Option(names = "--set", paramLabel = "PATH=VALUE", description = "Override any config value, e.g. engine.max_num_seqs=128 (repeatable).")
    List<String> sets = new ArrayList<>();

    @Option(names = "--model", description = "deployment.model: Hugging Face id, e.g. meta-llama/llama-3.1-8b-instruct")
    String model;

    @Option(names = "--hardware", description = "deployment.hardware: GPU, e.g. H100, A100-80GB, L40S")
    String hardware;

    @Option(names = "--tp", description = "deployment.tp: tensor-parallel degree")
    Integer tp;

    @Option(names = "--latency-model", description = "deployment.latency_model: auto, blackbox or roofline")
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

    @Option(names = "--scheduler", description = "policies.scheduler: fcfs, priority-fcfs, sjf, reverse-priority")
    String scheduler;

    @Option(names = "--priority-policy", description = "policies.priority: constant, slo-based, inverted-slo")
    String priority;

    @Option(names = "--rate", description = "workload.arrival.rate: requests per second")
    Double rate;

    @Option(names = "--num-requests", description = "workload.num_requests")
    Long numRequests;

    /** The overrides the flags stand for, followed by the {@code --set} ones. */
    List<String> overrides() {
        List<String> o = new ArrayList<>();
        add(o, "deployment.model", model);
        add(o, "deployment.hardware", hardware);
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
        add(o, "policies.scheduler", scheduler);
        add(o, "policies.priority", priority);
        add(o, "workload.arrival.rate", rate);
        add(o, "workload.num_requests", numRequests);
        o.addAll(sets);
        return o;
    }

    SimConfig load(Path file) {
        return SimConfigLoader.load(file, overrides());
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
