package io.servesim.workload;

import io.servesim.config.Durations;
import io.servesim.config.Setting;
import io.servesim.config.ValueType;
import java.util.List;

/**
 * One client's settings ({@code workload.clients[]}, or directly under {@code workload:} in the single-client form),
 * after BLIS workload spec v2 {@code ClientSpec}: who it is, its share of the rate, its prefix, conversations
 * (BLIS {@code MultiTurnSpec}), lifecycle and network (BLIS {@code NetworkSpec}; client-side latencies as vLLM's
 * {@code benchmarks/benchmark_serving.py} measures them), and a prompt pool (inference-perf's {@code shared_prefix}
 * data generator, {@link PromptPoolSpec}). Its arrival process is {@code arrival.ArrivalSettings}, its
 * length distributions {@code dist.DistributionSettings}, an agentic client's workflow {@code agentic.AgenticSettings}.
 */
public final class ClientSettings {
    /** The id of the one client of the single-client form. */
    public static final String SINGLE_CLIENT_ID = "default";
    /** How a prompt grows along a session: a conversation's turns, an agentic workflow's steps. */
    public static final List<String> CONTEXT_GROWTH = List.of("accumulate", "none");

    public static final Setting<String> ID = Setting.derived("workload.clients[].id", ValueType.text(),
            "'" + SINGLE_CLIENT_ID + "' in the single-client form; required in clients[]",
            "Unique client id, of letters, digits, _ . - (it names the client's random streams).");
    public static final Setting<String> TENANT_ID = Setting.of("workload.clients[].tenant_id", ValueType.text(), "default",
            "Tenant, for fairness and quotas.");
    public static final Setting<String> SLO_CLASS = Setting.of("workload.clients[].slo_class", ValueType.text(), "standard",
            "SLO class; it must have targets under slo: (realtime, interactive, standard, batch by default).");
    public static final Setting<Double> RATE_FRACTION = Setting.of("workload.clients[].rate_fraction",
            ValueType.real(0, 1e6).above().in("", "a relative share of aggregate_rate; a million times another client's"
                    + " leaves that one nothing"), 1.0,
            "Share of aggregate_rate (clients that give none share it equally); shares that do not sum to 1 are"
                    + " normalised (with a warning).");
    public static final Setting<Double> STREAMING_PROBABILITY = Setting.of("workload.clients[].streaming_probability",
            ValueType.real(0, 1).in("", "a probability"), 1.0,
            "Probability that a request streams its response (else the client receives the whole output at once).");
    public static final Setting<Long> MAX_OUTPUT_TOKENS = Setting.of("workload.clients[].max_output_tokens",
            ValueType.integer(0, Integer.MAX_VALUE).in("tokens", null), 0L,
            "Output budget (max_tokens) of every request, capping its sampled output; 0: none.");
    public static final Setting<String> PREFIX_GROUP = Setting.derived("workload.clients[].prefix.group", ValueType.text(),
            "required in a prefix block", "Shared system prompt's group: prefixes of the same group share their content.");
    public static final Setting<Long> PREFIX_LENGTH = Setting.derived("workload.clients[].prefix.length",
            ValueType.integer(1, Integer.MAX_VALUE).in("tokens", null), "required in a prefix block",
            "Tokens of the shared prefix prepended to every prompt.");
    public static final Setting<Double> CONVERSATION_PROBABILITY = Setting.of("workload.clients[].conversation.probability",
            ValueType.real(0, 1).in("", "a probability"), 1.0,
            "Probability that an arrival starts a multi-turn session (else it is a single request).");
    public static final Setting<String> CONVERSATION_CONTEXT_GROWTH = Setting.of(
            "workload.clients[].conversation.context_growth", ValueType.choice(CONTEXT_GROWTH), "accumulate",
            "accumulate: a follow-up's prompt is the previous turn's prompt and output, then a new message (the engine sees"
                    + " the earlier turns as a cached prefix); none: a fresh prompt each turn.");
    public static final Setting<Long> START_US = Setting.of("workload.clients[].lifecycle.start_us",
            ValueType.duration(0, Durations.MAX_US).bareMicros().because(WorkloadSettings.SIMULATED_TIME), 0L,
            "The client's first send is at or after this time.");
    public static final Setting<Long> STOP_US = Setting.derived("workload.clients[].lifecycle.stop_us",
            ValueType.duration(0, Durations.MAX_US).bareMicros().because(WorkloadSettings.SIMULATED_TIME), "never",
            "No new arrivals (sessions) after this time, which must be after start_us; follow-up turns of running sessions"
                    + " continue.");
    public static final Setting<Double> BYTES_PER_TOKEN = Setting.of("workload.clients[].network.bytes_per_token",
            ValueType.real(0, 1e6).in("bytes", "a megabyte per token is beyond any encoding of text"), 4.0,
            "Bytes of request or response body per token, serialized on the link.");
    public static final Setting<Double> BANDWIDTH_MBPS = Setting.derived("workload.clients[].network.bandwidth_mbps",
            ValueType.real(0, 1e7).above().in("Mb/s", "10 Tb/s is beyond any client link; omit it for an unlimited link"),
            "unlimited (only rtt_us applies)", "The client's link, each direction (1 Mb/s moves a bit per microsecond).");
    public static final Setting<Long> RTT_US = Setting.of("workload.clients[].network.rtt_us",
            ValueType.duration(0, 60_000_000L).bareMicros().because("a geostationary satellite's round trip is ~0.6 s; a"
                    + " minute is no network"), 0L,
            "Round trip between client and server: half delays the request, half the response.");

    public static final Setting<Long> POOL_SYSTEM_PROMPTS = Setting.derived("workload.clients[].prompt_pool.system_prompts",
            ValueType.integer(1, PromptPoolSpec.MAX_PROMPTS).in("prompts", "the pool holds at most a million prompts"),
            "required in a prompt_pool block",
            "N: system prompts of the pool, each of a length drawn once from system_prompt_distribution"
                    + " (inference-perf's num_unique_system_prompts).");
    public static final Setting<Long> POOL_QUESTIONS = Setting.derived(
            "workload.clients[].prompt_pool.questions_per_system_prompt",
            ValueType.integer(1, PromptPoolSpec.MAX_PROMPTS).in("prompts", "the pool holds at most a million prompts"),
            "required in a prompt_pool block",
            "M: questions after each system prompt, each of a length drawn once from input_distribution and with an"
                    + " output length drawn once from output_distribution (inference-perf's num_users_per_system_prompt);"
                    + " N x M is at most a million.");
    public static final Setting<Long> POOL_SEED = Setting.derived("workload.clients[].prompt_pool.seed",
            ValueType.integer(Long.MIN_VALUE, Long.MAX_VALUE), "the workload's seed",
            "The pool's own seed (inference-perf's shared_prefix.seed): the same prompts whatever the run's seed.");

    /** Every client setting, in documentation order. */
    public static final List<Setting<?>> ALL = List.of(ID, TENANT_ID, SLO_CLASS, RATE_FRACTION, STREAMING_PROBABILITY,
            MAX_OUTPUT_TOKENS, PREFIX_GROUP, PREFIX_LENGTH, CONVERSATION_PROBABILITY, CONVERSATION_CONTEXT_GROWTH, START_US,
            STOP_US, BYTES_PER_TOKEN, BANDWIDTH_MBPS, RTT_US, POOL_SYSTEM_PROMPTS, POOL_QUESTIONS, POOL_SEED);

    private ClientSettings() {
    }
}
