package io.servesim.workload.agentic;

import io.servesim.metrics.RequestRecord;
import io.servesim.metrics.RunSummary;
import io.servesim.metrics.SessionRecord;
import io.servesim.metrics.SessionSink;
import io.servesim.run.RunPlan;
import io.servesim.run.SimConfigLoader;
import io.servesim.workload.Yaml;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs a YAML config through {@link RunPlan}, as {@code servesim run} does. {@link #DEPLOYMENT}
 * is a blackbox model whose every step takes exactly 1 ms (beta = [1000, 0, 0], no queueing delay,
 * no per-token processing) on a cache that never fills: an LLM call that starts on an idle engine
 * completes exactly (output tokens) ms after its arrival (the prefill step samples the first token).
 */
final class AgenticRuns {
    static final String DEPLOYMENT = """
            deployment: {coefficients: {alpha: [0, 0, 0], beta: [1000, 0, 0]}}
            engine: {total_kv_blocks: 200000, max_num_batched_tokens: 200000, max_num_seqs: 1024}
            """;

    record Result(RunSummary summary, List<RequestRecord> requests, List<SessionRecord> sessions) {
        SessionRecord session(long id) {
            return sessions.stream().filter(s -> s.sessionId() == id).findFirst().orElseThrow();
        }

        List<RequestRecord> requestsOf(long sessionId) {
            return requests.stream().filter(r -> r.sessionId() == sessionId).toList();
        }
    }

    private AgenticRuns() {
    }

    static Result run(String config) {
        RunPlan plan = RunPlan.prepare(SimConfigLoader.bind(Yaml.tree(config), Path.of(".")));
        List<RequestRecord> requests = new ArrayList<>();
        List<SessionRecord> sessions = new ArrayList<>();
        SessionSink sessionSink = sessions::add;
        RunSummary s = plan.run(requests::add, sessionSink);
        return new Result(s, requests, sessions);
    }

    /** {@link #DEPLOYMENT} plus a workload of sessions one second apart. */
    static Result runWorkload(String workload) {
        return run(DEPLOYMENT + "workload:\n" + workload.indent(2));
    }
}
