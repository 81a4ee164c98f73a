package io.servesim.workload;

import io.servesim.config.ConfigNode;
import io.servesim.config.Durations;
import io.servesim.workload.agentic.AgenticBinder;
import io.servesim.workload.agentic.AgenticSpec;
import io.servesim.workload.arrival.ArrivalBinder;
import io.servesim.workload.arrival.ArrivalSpec;
import io.servesim.workload.dist.DistributionBinder.Kind;
import io.servesim.workload.dist.DistributionBinder;
import io.servesim.workload.dist.DistributionSpec;
import io.servesim.workload.multimodal.MultimodalBinder;
import io.servesim.workload.multimodal.MultimodalSpec;
import io.servesim.workload.reasoning.ReasoningBinder;
import io.servesim.workload.reasoning.ReasoningSpec;
import java.nio.file.Path;
import java.util.regex.Pattern;

/**
 * Binds one client's keys (a {@code clients[i]} element, or the workload section itself for the
 * single-client short form) into a {@link ClientSpec}, reading its settings ({@link ClientSettings}, which hold their
 * defaults). Without {@code arrival} the client's arrivals are Poisson, without {@code priority_distribution} its
 * priority is 0; a prefix, conversation, network or lifecycle limit only when given. {@code input_distribution} and
 * {@code output_distribution} are required, except on an {@code agentic} client (bound by {@link AgenticBinder}), whose
 * steps carry their own and which excludes {@code conversation} and {@code network}, and, as validation rule 9 of BLIS's
 * agentic specification has it ("Validation Rules", {@code agentic} package), {@code reasoning} and {@code multimodal}. Within {@code conversation},
 * {@code turns} is required and {@code think_time_us} is 0 when omitted. A {@code reasoning} client's
 * {@code multi_turn} (BLIS's spelling of a conversation: every arrival a session of {@code max_rounds} rounds) is bound
 * as its conversation, so it excludes {@code conversation}.
 */
final class ClientBinder {
    private static final Pattern ID = Pattern.compile("[A-Za-z0-9_.\\-]+");

    private ClientBinder() {
    }

    /** The client, or null when invalid (problems recorded). Does not call {@code c.finish()}. */
    static ClientSpec bind(ConfigNode c, String defaultId, Path baseDir) {
        String id = c.get(ClientSettings.ID);
        if (!c.has(ClientSettings.ID.key())) {
            id = defaultId;
            if (id == null) {
                c.problem(c.pathOf("id"), "required: a unique client id (letters, digits, _ . -)");
            }
        } else if (id != null && !ID.matcher(id).matches()) {
            c.problem(c.pathOf("id"), "must use only letters, digits, _ . - (it names the client's random streams), got '" + id + "'");
        }
        String tenant = c.get(ClientSettings.TENANT_ID);
        if (tenant != null && tenant.isBlank()) {
            // it keys the per-tenant breakdown and fairness: a blank one is a tenant no one can name
            c.problem(c.pathOf(ClientSettings.TENANT_ID.key()), "must not be empty (it names the tenant in"
                    + " cluster.by_tenant); leave it out for the tenant 'default'");
        }
        String slo = c.get(ClientSettings.SLO_CLASS);
        double fraction = c.get(ClientSettings.RATE_FRACTION);
        ArrivalSpec arrival = ArrivalBinder.bind(c.child("arrival"), baseDir);
        if (arrival != null && !arrival.hasRate()) {
            if (c.has(ClientSettings.RATE_FRACTION.key())) {
                c.problem(c.pathOf(ClientSettings.RATE_FRACTION.key()), "not used: this client's arrival process is"
                        + " distribution, whose inter_arrival_us sets its rate (it takes no share of aggregate_rate)");
            }
            fraction = 0;
        }
        c.declare("agentic");
        boolean agenticClient = c.has("agentic");
        AgenticSpec agentic = agenticClient ? AgenticBinder.bind(c.child("agentic"), baseDir) : null;
        c.declare("multimodal");
        boolean multimodalClient = c.has("multimodal") && !agenticClient;
        MultimodalSpec multimodal = multimodalClient ? MultimodalBinder.bind(c.child("multimodal"), baseDir) : null;
        DistributionSpec input = agenticClient ? notForAgentic(c, "input_distribution")
                : multimodalClient ? notForMultimodal(c)
                : required(c, "input_distribution", Kind.TOKENS, baseDir,
                "the prompt length distribution, e.g. {type: lognormal, params: {mean: 800, sigma: 0.9}}");
        DistributionSpec output = agenticClient ? notForAgentic(c, "output_distribution")
                : required(c, "output_distribution", Kind.TOKENS, baseDir,
                "the output length distribution, e.g. {type: exponential, params: {mean: 220}}");
        PrefixSpec prefix = prefix(c.child("prefix"));
        DistributionSpec priority = optional(c, "priority_distribution", Kind.REAL, baseDir, DistributionSpec.constant(0));
        double streaming = c.get(ClientSettings.STREAMING_PROBABILITY);
        ConversationSpec conversation = conversation(c.child("conversation"), baseDir);
        c.declare("reasoning");
        ReasoningSpec reasoning = c.has("reasoning") ? ReasoningBinder.bind(c.child("reasoning"), baseDir) : null;
        boolean multiTurn = reasoning != null && reasoning.multiTurn() != null;
        if (multiTurn) {
            if (c.has("conversation")) {
                c.problem(c.pathOf("reasoning") + ".multi_turn", "excludes conversation on the same client (both make"
                        + " the client's sessions); remove one of them");
            }
            ReasoningSpec.MultiTurn m = reasoning.multiTurn();
            conversation = new ConversationSpec(1, DistributionSpec.constant(m.maxRounds()),
                    DistributionSpec.constant(m.thinkTimeUs()), m.accumulate());
        }
        ConfigNode life = c.child("lifecycle");
        long startUs = life.get(ClientSettings.START_US);
        Long stopUs = life.get(ClientSettings.STOP_US);
        if (stopUs != null && !life.refused(ClientSettings.START_US) && stopUs <= startUs) {
            life.problem(life.pathOf("stop_us"), "must be > start_us (" + Durations.render(startUs) + "), got "
                    + Durations.render(stopUs));
        }
        life.finish();
        NetworkSpec network = network(c.child("network"));
        int maxOutput = c.getInt(ClientSettings.MAX_OUTPUT_TOKENS);
        c.declare("prompt_pool");
        PromptPoolSpec pool = c.has("prompt_pool") ? promptPool(c, baseDir) : null;
        if (multiTurn && c.has("prompt_pool")) {
            c.problem(c.pathOf("prompt_pool"), "excludes reasoning.multi_turn on the same client (the pool sends the same"
                    + " prompts again, not growing sessions); remove one of them");
        }
        if (agenticClient) {
            boolean excluded = false;
            for (String key : new String[] {"conversation", "network", "reasoning", "multimodal"}) {
                if (c.has(key)) {
                    c.problem(c.pathOf("agentic"), "excludes " + key + " on the same client (" + switch (key) {
                        case "conversation" -> "an agentic session already chains its requests";
                        case "network" -> "step arrivals follow parent completions directly";
                        default -> "agentic is exclusive with reasoning and multimodal, validation rule 9 of BLIS's"
                                + " agentic workload specification; give each its own client";
                    } + "); remove one of them");
                    excluded = true;
                }
            }
            if (id == null || arrival == null || agentic == null || priority == null || excluded) {
                return null;
            }
        } else if (id == null || arrival == null || (multimodalClient ? multimodal == null : input == null) || output == null
                || priority == null
                || c.has("prompt_pool") && pool == null || c.has("reasoning") && reasoning == null
                || multiTurn && (c.has("conversation") || c.has("prompt_pool"))) {
            return null;
        }
        return new ClientSpec(id, tenant, slo, fraction, arrival, input, output, prefix, priority, streaming,
                conversation, startUs, stopUs == null ? Long.MAX_VALUE : stopUs, network, maxOutput, agentic, pool,
                reasoning, multimodal);
    }

    /**
     * The client's {@code prompt_pool}: N system prompts of M questions, at most {@link PromptPoolSpec#MAX_PROMPTS}.
     * The pool brings its own system prompts and sends the same prompts again, so it excludes {@code prefix},
     * {@code conversation} and {@code agentic} on the same client. Null when invalid (problems recorded).
     */
    private static PromptPoolSpec promptPool(ConfigNode c, Path baseDir) {
        ConfigNode p = c.child("prompt_pool");
        if (!p.present()) {
            return null; // not a mapping: reported
        }
        Long groups = p.get(ClientSettings.POOL_SYSTEM_PROMPTS);
        Long questions = p.get(ClientSettings.POOL_QUESTIONS);
        Long seed = p.get(ClientSettings.POOL_SEED);
        for (var s : java.util.List.of(ClientSettings.POOL_SYSTEM_PROMPTS, ClientSettings.POOL_QUESTIONS)) {
            if (!p.has(s.key())) {
                p.problem(p.pathOf(s.key()), "required in a prompt_pool block");
            }
        }
        DistributionSpec system = required(p, "system_prompt_distribution", Kind.TOKENS, baseDir,
                "a system prompt's length, e.g. {type: constant, params: {value: 100}}");
        p.finish();
        boolean ok = true;
        if (groups != null && questions != null && groups * questions > PromptPoolSpec.MAX_PROMPTS) {
            p.problem(p.pathOf(ClientSettings.POOL_QUESTIONS.key()), "the pool would hold " + groups * questions
                    + " prompts (system_prompts x questions_per_system_prompt); at most " + PromptPoolSpec.MAX_PROMPTS
                    + ", every prompt of it being kept in memory");
            ok = false;
        }
        for (String key : new String[] {"prefix", "conversation", "agentic", "multimodal"}) {
            if (c.has(key)) {
                c.problem(c.pathOf("prompt_pool"), "excludes " + key + " on the same client (" + switch (key) {
                    case "prefix" -> "the pool's system prompts are its prefixes";
                    case "conversation" -> "the pool sends the same prompts again, not growing conversations";
                    case "multimodal" -> "the pool's questions are text of input_distribution's lengths";
                    default -> "an agentic client's steps carry their own prompts";
                } + "); remove one of them");
                ok = false;
            }
        }
        return ok && groups != null && questions != null && system != null
                ? new PromptPoolSpec(Math.toIntExact(groups), Math.toIntExact(questions), system,
                seed == null ? java.util.OptionalLong.empty() : java.util.OptionalLong.of(seed)) : null;
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

    /** Marks input_distribution read and reports it if given: a multimodal client's messages replace it. */
    private static DistributionSpec notForMultimodal(ConfigNode c) {
        c.child("input_distribution");
        if (c.has("input_distribution")) {
            c.problem(c.pathOf("input_distribution"), "not used by a multimodal client: multimodal.text_distribution and"
                    + " its items give a message's tokens");
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
        String group = p.get(ClientSettings.PREFIX_GROUP);
        Long length = p.get(ClientSettings.PREFIX_LENGTH);
        if (group == null || group.isBlank()) {
            p.problem(p.pathOf("group"), "required: the prefix group name (equal names share content)");
        }
        if (!p.has(ClientSettings.PREFIX_LENGTH.key())) {
            p.problem(p.pathOf("length"), "required: shared prefix tokens");
        }
        p.finish();
        return group == null || length == null ? null : new PrefixSpec(group, Math.toIntExact(length));
    }

    private static ConversationSpec conversation(ConfigNode n, Path baseDir) {
        if (!n.present()) {
            return null;
        }
        double probability = n.get(ClientSettings.CONVERSATION_PROBABILITY);
        DistributionSpec turns = required(n, "turns", Kind.COUNT, baseDir,
                "turns per session, e.g. {type: uniform, params: {min: 2, max: 8}}");
        DistributionSpec think = optional(n, "think_time_us", Kind.MICROS, baseDir, DistributionSpec.constant(0));
        String growth = n.get(ClientSettings.CONVERSATION_CONTEXT_GROWTH);
        n.finish();
        return turns == null || think == null ? null
                : new ConversationSpec(probability, turns, think, "accumulate".equals(growth));
    }

    private static NetworkSpec network(ConfigNode n) {
        if (!n.present()) {
            return null;
        }
        double bytesPerToken = n.get(ClientSettings.BYTES_PER_TOKEN);
        Double bandwidthMbps = n.get(ClientSettings.BANDWIDTH_MBPS);
        long rttUs = n.get(ClientSettings.RTT_US);
        n.finish();
        return new NetworkSpec(bytesPerToken, bandwidthMbps == null ? NetworkSpec.UNLIMITED : bandwidthMbps, rttUs);
    }
}
