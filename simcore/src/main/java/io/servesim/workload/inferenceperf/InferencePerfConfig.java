package io.servesim.workload.inferenceperf;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.servesim.config.ConfigException;
import io.servesim.config.ConfigNode;
import io.servesim.config.ReadFailure;
import io.servesim.config.StrictJson;
import java.nio.file.Path;
import java.util.List;

/**
 * Reads a kubernetes-sigs/inference-perf config file as a servesim workload (the keys and defaults of
 * {@code inference_perf/config/} @ 7de5ef2ed6f7934e0ecbc8297e593f79e68430c0): what it says of the load and the data
 * becomes a single-client workload spec v2 tree, which the workload binder then binds like any other.
 * <ul>
 *   <li>{@code load}: {@code type} {@code constant} (the {@code spread} process) or {@code poisson}; {@code stages}
 *       [{@code rate}, {@code duration} in s] (staged load); {@code interval} (s, default 1) between stages;
 *       {@code base_seed} (the workload's seed).</li>
 *   <li>{@code data}: {@code type} {@code shared_prefix} (a prompt pool: {@code num_unique_system_prompts} /
 *       {@code num_groups}, {@code num_users_per_system_prompt} / {@code num_prompts_per_group},
 *       {@code system_prompt_len}, {@code question_len}, {@code output_len}, the legacy {@code question_distribution},
 *       {@code output_distribution}, {@code seed}) or {@code random} / {@code synthetic} ({@code input_distribution},
 *       {@code output_distribution}, whose {@code total_count} caps the requests);
 *       {@code corpus_file_path} and {@code use_chat_template} choose the text of the tokens, not their number.</li>
 *   <li>{@code api}: {@code type} (any of inference-perf's), {@code streaming}.</li>
 *   <li>{@code server}, {@code tokenizer}, {@code metrics}, {@code report}, {@code storage}, {@code circuit_breakers}
 *       and {@code api}'s other keys describe the server under test and what the benchmark reports: in a simulation
 *       the config's deployment, engine and outputs take their place, so they are not read.</li>
 * </ul>
 * Anything else that shapes the load, and that servesim does not model, is refused at its path: the other load
 * and data types, {@code load.sweep} (it probes a live server for its saturation rate), LoRA splits, request
 * timeouts, enabled circuit breakers, the client's worker and connection limits (servesim's clients are open
 * loop), multi-turn chat and multimodal data, and the {@code skew_normal} and {@code poisson} length distributions.
 */
public final class InferencePerfConfig {
    private static final JsonNodeFactory F = JsonNodeFactory.instance;
    /** Top-level sections that describe the server under test and the benchmark's outputs. */
    private static final List<String> NOT_READ = List.of("server", "tokenizer", "metrics", "report", "storage",
            "circuit_breakers");

    private InferencePerfConfig() {
    }

    /**
     * The workload tree of inference-perf config {@code file}; null after recording its problems on {@code sink} at
     * {@code at}, each naming its key in the file.
     */
    public static ObjectNode read(Path file, ConfigNode sink, String at) {
        String unreadable = ReadFailure.unreadable(file);
        if (unreadable != null) {
            sink.problem(at, "inference-perf config " + file + ": " + unreadable);
            return null;
        }
        ObjectNode tree;
        try {
            tree = StrictJson.readMapping(file);
        } catch (ConfigException e) {
            e.problems().forEach(p -> sink.problem(at, "inference-perf config: " + p));
            return null;
        }
        ConfigNode ip = ConfigNode.root(tree);
        ObjectNode out = translate(ip);
        try {
            ip.throwIfProblems();
        } catch (ConfigException e) {
            e.problems().forEach(p -> sink.problem(at, p + " (in inference-perf config " + file + ")"));
            return null;
        }
        return out;
    }

    private static ObjectNode translate(ConfigNode ip) {
        ip.declare(NOT_READ.toArray(String[]::new));
        ObjectNode w = F.objectNode();
        w.put("version", "2");
        load(ip.child("load"), w);
        data(ip.child("data"), w);
        ConfigNode api = ip.child("api");
        api.choice("type", "completion", List.of("completion", "chat", "anthropic_messages"));
        w.put("streaming_probability", api.boolValue("streaming", false) ? 1.0 : 0.0);
        ip.finish();
        return w;
    }

    /** {@code load}: the stages, the pause between them, the arrival process and the seed. */
    private static void load(ConfigNode load, ObjectNode w) {
        String type = load.choice("type", "constant", List.of("constant", "poisson", "trace_replay", "concurrent",
                "trace_session_replay"));
        if (type != null && !type.equals("constant") && !type.equals("poisson")) {
            load.problem(load.pathOf("type"), "'" + type + "' is not modelled: servesim reads the constant and poisson"
                    + " load types (replay a trace with workload.trace instead)");
        }
        w.putObject("arrival").put("process", "poisson".equals(type) ? "poisson" : "spread");
        double intervalS = load.doubleValue("interval", 1.0, 0, 1e9);
        w.put("stage_interval_us", Math.round(intervalS * 1e6));
        if (load.has("base_seed")) {
            w.put("seed", load.longValue("base_seed", 0, Long.MIN_VALUE, Long.MAX_VALUE));
        }
        var stages = w.putArray("stages");
        List<ConfigNode> nodes = load.list("stages");
        if (nodes.isEmpty() && !load.hasProblems()) {
            load.problem(load.pathOf("stages"), "required: inference-perf runs no load without stages"
                    + " [{rate, duration}]");
        }
        for (ConfigNode s : nodes) {
            JsonNode given = s.rawValue("rate");
            double rate = 0;
            if (given != null && !(given.isNumber() && given.asDouble() > 0 && given.asDouble() <= 1e6)) {
                s.problem(s.pathOf("rate"), "must be a number in (0, 1000000] requests/s, got " + given
                        + " (a stage at rate 0 sends nothing; a million requests a second is beyond any serving fleet)");
            } else if (given != null) {
                rate = given.asDouble();
            }
            long durationS = s.longValue("duration", 0, 1, 1_000_000_000L);
            for (String k : new String[] {"rate", "duration"}) {
                if (!s.has(k)) {
                    s.problem(s.pathOf(k), "required in a " + type + " load stage");
                }
            }
            refuse(s, "num_requests", "belongs to a concurrent load stage, not a " + type + " one");
            refuse(s, "concurrency_level", "belongs to a concurrent load stage, not a " + type + " one");
            s.finish();
            stages.addObject().put("rate", rate).put("duration_us", durationS * 1_000_000);
        }
        refuse(load, "sweep", "it probes a live server for its saturation rate; write the stages out, or use"
                + " servesim capacity to find the sustainable rate");
        refuse(load, "lora_traffic_split", "LoRA adapters are not modelled");
        refuse(load, "request_timeout", "client-side timeouts are not modelled");
        refuse(load, "trace", "only the trace_replay load type reads it");
        refuse(load, "num_workers", OPEN_LOOP);
        refuse(load, "worker_max_concurrency", OPEN_LOOP);
        refuse(load, "worker_max_tcp_connections", OPEN_LOOP);
        if (load.has("circuit_breakers") && !load.rawValue("circuit_breakers").isEmpty()) {
            load.problem(load.pathOf("circuit_breakers"), "circuit breakers (stopping the run on a metric) are not"
                    + " modelled; remove them");
        }
        load.finish();
    }

    private static final String OPEN_LOOP = "servesim's clients send open loop, without the benchmark's cap of"
            + " num_workers x worker_max_concurrency requests in flight";

    /** {@code data}: a prompt pool (shared_prefix) or per-request lengths (random, synthetic). */
    private static void data(ConfigNode data, ObjectNode w) {
        String type = data.choice("type", "mock", List.of("mock", "shareGPT", "synthetic", "random", "shared_prefix",
                "cnn_dailymail", "infinity_instruct", "billsum_conversations", "otel_trace_replay", "weka_trace_replay",
                "conversation_replay", "visionarena"));
        data.declare("corpus_file_path", "use_chat_template");
        refuse(data, "multimodal", "multimodal data is not modelled");
        if ("shared_prefix".equals(type)) {
            sharedPrefix(data.child("shared_prefix"), w);
            for (String k : new String[] {"input_distribution", "output_distribution"}) {
                refuse(data, k, "only the synthetic and random types read it; shared_prefix takes question_len and"
                        + " output_len");
            }
        } else if ("random".equals(type) || "synthetic".equals(type)) {
            refuse(data, "shared_prefix", "only the shared_prefix type reads it");
            long in = lengths(data, "input_distribution", w);
            long out = lengths(data, "output_distribution", w);
            if (in > 0 && out > 0) {
                w.put("num_requests", Math.min(in, out));
            }
        } else if (type != null) {
            data.problem(data.pathOf("type"), "'" + type + "' is not modelled: servesim reads the shared_prefix, random"
                    + " and synthetic data types (datasets have no lengths without their files; replay a trace with"
                    + " workload.trace instead)");
        }
        data.finish();
    }

    /** {@code data.shared_prefix}: the prompt pool, inference-perf's defaults 10 x 10 prompts of 100 + 50 tokens. */
    private static void sharedPrefix(ConfigNode sp, ObjectNode w) {
        ObjectNode pool = w.putObject("prompt_pool");
        pool.put("system_prompts", sp.longValue("num_unique_system_prompts", 10, 1, 1_000_000, "num_groups"));
        pool.put("questions_per_system_prompt", sp.longValue("num_users_per_system_prompt", 10, 1, 1_000_000,
                "num_prompts_per_group"));
        if (sp.has("seed")) {
            pool.put("seed", sp.longValue("seed", 0, Long.MIN_VALUE, Long.MAX_VALUE));
        }
        pool.set("system_prompt_distribution", length(sp, "system_prompt_len", 100));
        w.set("input_distribution", lengthOrLegacy(sp, "question_len", "question_distribution", 50));
        w.set("output_distribution", lengthOrLegacy(sp, "output_len", "output_distribution", 50));
        if (sp.boolValue("enable_multi_turn_chat", false)) {
            sp.problem(sp.pathOf("enable_multi_turn_chat"), "multi-turn chat over the pool is not modelled; remove it");
        }
        refuse(sp, "multimodal", "multimodal prefixes are not modelled");
        sp.finish();
    }

    /**
     * {@code sp.key}, a length or an inline distribution (default {@code dflt} tokens), or the legacy distribution
     * {@code legacy} when {@code key} is a plain length (inference-perf's {@code _resolve_distribution}).
     */
    private static JsonNode lengthOrLegacy(ConfigNode sp, String key, String legacy, int dflt) {
        JsonNode v = sp.rawValue(key);
        boolean inline = v != null && v.isObject();
        if (sp.has(legacy)) {
            if (inline) {
                sp.problem(sp.pathOf(legacy), "set beside an inline distribution on " + key + "; use one of them");
            }
            return LengthDistribution.of(sp.child(legacy), false);
        }
        return length(sp, key, dflt);
    }

    /** {@code n.key}: a length in tokens or a distribution mapping; {@code dflt} tokens when absent. */
    private static JsonNode length(ConfigNode n, String key, int dflt) {
        JsonNode v = n.rawValue(key);
        if (v == null || !v.isObject()) {
            return LengthDistribution.constant(n.longValue(key, dflt, 0, 1_000_000));
        }
        return LengthDistribution.of(n.child(key), false);
    }

    /**
     * {@code data.key} of the random or synthetic type (drawn by {@code generate_distribution}), required, into
     * {@code w}; its {@code total_count}, or 0 when it sets none.
     */
    private static long lengths(ConfigNode data, String key, ObjectNode w) {
        if (!data.has(key)) {
            data.problem(data.pathOf(key), "required by the random and synthetic data types");
            return 0;
        }
        ConfigNode d = data.child(key);
        long total = d.longValue("total_count", 0, 1, Long.MAX_VALUE);
        w.set(key, LengthDistribution.of(d, true)); // generate_distribution: lognormal shifted by min
        return total;
    }

    private static void refuse(ConfigNode n, String key, String why) {
        n.declare(key);
        if (n.has(key)) {
            n.problem(n.pathOf(key), "not modelled: " + why + "; remove it");
        }
    }
}
