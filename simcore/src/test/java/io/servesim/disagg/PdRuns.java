package io.servesim.disagg;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.servesim.config.Overrides;
import io.servesim.config.StrictJson;
import io.servesim.decisions.DecisionRecord;
import io.servesim.decisions.TraceOptions;
import io.servesim.metrics.RequestRecord;
import io.servesim.metrics.RunSummary;
import io.servesim.metrics.SessionSink;
import io.servesim.run.RunPlan;
import io.servesim.run.SimConfigLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Runs a YAML config (with {@code --set}-style overrides) and keeps its summary and records. */
final class PdRuns {
    /** Llama-3.1-8B on H100s (trained blackbox coefficients), a P/D deployment of 2 + 2 replicas. */
    static final String BASE = """
            seed: 7
            deployment:
              model: meta-llama/llama-3.1-8b-instruct
              hardware: H100
              architecture: pd
              pd: {prefill: {replicas: 2}, decode: {replicas: 2}, decider: always, transfer: {latency: 1ms, bandwidth: 50GB/s}}
            engine: {max_num_seqs: 64, max_num_batched_tokens: 2048, block_size: 16}
            policies: {routing: kv-router}
            workload:
              aggregate_rate: 10
              num_requests: 300
              input_distribution: {type: gaussian, params: {mean: 1500, std_dev: 800, min: 16, max: 6000}}
              output_distribution: {type: gaussian, params: {mean: 80, std_dev: 60, min: 1, max: 400}}
              prefix: {group: system-prompt, length: 256}
            """;

    record Result(RunSummary summary, List<RequestRecord> records) {
    }

    private PdRuns() {
    }

    static Result run(String yaml, String... overrides) {
        return run(yaml, Path.of(""), overrides);
    }

    /** The decision records of a traced run of {@code yaml} with {@code overrides}. */
    static List<DecisionRecord> trace(TraceOptions options, String yaml, String... overrides) {
        List<DecisionRecord> decisions = new ArrayList<>();
        RunPlan.prepare(SimConfigLoader.bind(tree(yaml, overrides), Path.of(""))).run(rec -> { }, SessionSink.NONE,
                decisions::add, options);
        return decisions;
    }

    /** Relative paths of the config resolve against {@code baseDir}. */
    static Result run(String yaml, Path baseDir, String... overrides) {
        List<RequestRecord> records = new ArrayList<>();
        RunSummary s = RunPlan.prepare(SimConfigLoader.bind(tree(yaml, overrides), baseDir)).run(records::add);
        return new Result(s, records);
    }

    static ObjectNode tree(String yaml, String... overrides) {
        ObjectNode tree;
        try {
            tree = (ObjectNode) StrictJson.yaml().readTree(yaml);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        for (String o : overrides) {
            Overrides.apply(tree, o);
        }
        return tree;
    }
}
