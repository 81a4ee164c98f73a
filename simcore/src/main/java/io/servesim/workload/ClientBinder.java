package io.servesim.workload;

import io.servesim.config.ConfigNode;
import io.servesim.workload.agentic.AgenticBinder;
import io.servesim.workload.agentic.AgenticSpec;
import io.servesim.workload.arrival.ArrivalBinder;
import io.servesim.workload.arrival.ArrivalSpec;
import io.servesim.workload.dist.DistributionBinder.Kind;
import io.servesim.workload.dist.DistributionBinder;
import io.servesim.workload.dist.DistributionSpec;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Binds one client's keys (a {@code clients[i]} element, or the workload section itself for the
 * single-client short form) into a {@link ClientSpec}. Defaults: {@code tenant_id: default},
 * {@code slo_class: standard}, {@code rate_fraction: 1}, {@code arrival: {process: poisson}},
 * priority 0, {@code streaming_probability: 1}, {@code max_output_tokens: 0} (none), no prefix,
 * conversation, network or lifecycle limit. {@code input_distribution} and {@code output_distribution}
 * are required, except on an {@code agentic} client (bound by {@link AgenticBinder}), whose steps
 * carry their own and which excludes {@code conversation} and {@code network}. Within
 * {@code conversation}, {@code turns} is required, {@code probability} defaults to 1, {@code think_time_us} to 0 and {@code context_growth} to accumulate; within {@code network},
 * {@code bytes_per_token} defaults to 4, {@code bandwidth_mbps} to 0 (unlimited), {@code rtt_us} to 0.
 */
final class ClientBinder {
    static final List<String> CONTEXT_GROWTH = List.of("accumulate", "none");
    private static final Pattern ID = Pattern.compile("[A-Za-z0-9_.\\-]+");

    private ClientBinder() {
    }

    /** The client, or null when invalid (problems recorded). Does not call {@code c.finish()}. */
    static ClientSpec bind(ConfigNode c, String defaultId, Path baseDir) {
        String id = c.stringValue("id", defaultId);
        if (id == null) {
            c.problem(c.pathOf("id"), "required: a unique client id (letters, digits, _ . -)");
        } else if (!ID.matcher(id).matches()) {
            c.problem(c.pathOf("id"), "must use only letters, digits, _ . - (it names the client's random streams), got '" + id + "'");
        }
        String tenant = c.stringValue("tenant_id", "default");
        String slo = c.stringValue("slo_class", "standard");
        double fraction = c.doubleValue("rate_fraction", 1.0, -Double.MAX_VALUE, Double.MAX_VALUE);
        if (!(fraction > 0)) {
            c.problem(c.pathOf("rate_fraction"), "must be > 0");
        }
        ArrivalSpec arrival = ArrivalBinder.bind(c.child("arrival"));
        c.declare("agentic");
        boolean agenticClient = c.has("agentic");
        AgenticSpec agentic = agenticClient ? AgenticBinder.bind(c.child("agentic"), baseDir) : null;
        DistributionSpec input = agenticClient ? notForAgentic(c, "input_distribution")
                : required(c, "input_distribution", Kind.TOKENS, baseDir,
                "the prompt length distribution, e.g. {type: lognormal, params: {mean: 800, sigma: 0.9}}");
        DistributionSpec output = agenticClient ? notForAgentic(c, "output_distribution")
                : required(c, "output_distribution", Kind.TOKENS, baseDir,
                "the output length distribution, e.g. {type: exponential, params: {mean: 220}}");
        PrefixSpec prefix = prefix(c.child("prefix"));
        DistributionSpec priority = optional(c, "priority_distribution", Kind.REAL, baseDir, DistributionSpec.constant(0));
        double streaming = c.doubleValue("streaming_probability", 1.0, 0, 1);
        ConversationSpec conversation = conversation(c.child("conversation"), baseDir);
        ConfigNode life = c.child("lifecycle");
        long startUs = life.longValue("start_us", 0, 0, Long.MAX_VALUE);
        long stopUs = life.longValue("stop_us", Long.MAX_VALUE, 0, Long.MAX_VALUE);
        if (stopUs <= startUs) {
            life.problem(life.pathOf("stop_us"), "must be > start_us (" + startUs + "), got " + stopUs);
        }
        life.finish();
        NetworkSpec network = network(c.child("network"));
        int maxOutput = c.intValue("max_output_tokens", 0, 0, Integer.MAX_VALUE);
        if (agenticClient) {
            for (String key : new String[] {"conversation", "network"}) {
                if (c.has(key)) {
                    c.problem(c.pathOf("agentic"), "excludes " + key + " on the same client ("
                            + ("conversation".equals(key) ? "an agentic session already chains its requests"
                            : "step arrivals follow parent completions directly") + "); remove one of them");
                }
            }
            if (id == null || arrival == null || agentic == null || priority == null || c.has("conversation")
                    || c.has("network")) {
                return null;
            }
        } else if (id == null || arrival == null || input == null || output == null || priority == null) {
            return null;
        }
        return new ClientSpec(id, tenant, slo, fraction, arrival, input, output, prefix, priority, streaming,
                conversation, startUs, stopUs, network, maxOutput, agentic);
    }

    /** Marks {@code key} read and reports it if given: an agentic client's steps carry their own lengths. */
    private static DistributionSpec notForAgentic(ConfigNode c, String key) {
        c.child(key);
        if (c.has(key)) {
            c.problem(c.pathOf(key), "not used by an agentic client: each llm_call step has its own input_distribution "
                    + "and output_distribution");
        }
        return null;
    }

    private static DistributionSpec required(ConfigNode c, String key, Kind kind, Path baseDir, String what) {
        ConfigNode n = c.child(key);
        if (!n.present()) {
            c.problem(c.pathOf(key), "required: " + what);
            return null;
        }
        return DistributionBinder.bind(n, kind, baseDir);
    }

    private static DistributionSpec optional(ConfigNode c, String key, Kind kind, Path baseDir, DistributionSpec dflt) {
        ConfigNode n = c.child(key);
        return n.present() ? DistributionBinder.bind(n, kind, baseDir) : dflt;
    }

    private static PrefixSpec prefix(ConfigNode p) {
        if (!p.present()) {
            return null;
        }
        String group = p.stringValue("group", null);
        int length = p.intValue("length", 0, 1, Integer.MAX_VALUE);
        if (group == null || group.isBlank()) {
            p.problem(p.pathOf("group"), "required: the prefix group name (equal names share content)");
        }
        if (!p.has("length")) {
            p.problem(p.pathOf("length"), "required: shared prefix tokens");
        }
        p.finish();
        return group == null || length < 1 ? null : new PrefixSpec(group, length);
    }

    private static ConversationSpec conversation(ConfigNode n, Path baseDir) {
        if (!n.present()) {
            return null;
        }
        double probability = n.doubleValue("probability", 1.0, 0, 1);
        DistributionSpec turns = required(n, "turns", Kind.COUNT, baseDir,
                "turns per session, e.g. {type: uniform, params: {min: 2, max: 8}}");
        DistributionSpec think = optional(n, "think_time_us", Kind.MICROS, baseDir, DistributionSpec.constant(0));
        String growth = n.choice("context_growth", "accumulate", CONTEXT_GROWTH);
        n.finish();
        return turns == null || think == null ? null
                : new ConversationSpec(probability, turns, think, "accumulate".equals(growth));
    }

    private static NetworkSpec network(ConfigNode n) {
        if (!n.present()) {
            return null;
        }
        double bytesPerToken = n.doubleValue("bytes_per_token", 4, 0, 1e6);
        double bandwidth = n.doubleValue("bandwidth_mbps", 0, 0, 1e9);
        long rtt = n.longValue("rtt_us", 0, 0, Long.MAX_VALUE);
        n.finish();
        return new NetworkSpec(bytesPerToken, bandwidth, rtt);
    }
}
