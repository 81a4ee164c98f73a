package io.servesim.engine;

import io.servesim.config.ConfigNode;
import io.servesim.config.Setting;
import io.servesim.config.ValueType;
import java.util.List;

/**
 * The {@code frontend:} settings: the serving front end of every instance ({@link FrontEnd}). Its costs are the
 * API server's, not the GPU's, so they hold for every latency model; it is on by default except under the blackbox
 * model, whose trained alpha coefficients already carry the API server's per-request and per-token time (BLIS fits
 * them to the arrival-to-queued and output-token times of real runs).
 *
 * <p>Where the defaults come from (docs/fidelity.md, "The serving front end"): the per-output-token egress is vLLM's
 * measured incremental detokenization, about 20 us per token (vllm-project/vllm issue #5206); the client network
 * defaults to none, the client beside the server; the ingress is a cross-model constant per prompt token fitted to
 * the client-measured TTFT means of the sim-to-real study's trainval set (commit dcec3fd of
 * inference-sim/sim-to-real-accuracy-validation, {@code results_trainval/error_records.csv}: 13 runs of vLLM 0.15.1
 * on H100, TP 1 to 4), by least squares of the relative error of the roofline's runs of the shipped configs and
 * workloads ({@code io.servesim.fidelity.IngressFit}, printed by {@code servesim validate-latency}); fitted leaving one
 * experiment out it lies in [10.73, 12.38] us per token.
 */
public final class FrontEndSettings {
    /**
     * The fitted per-request ingress cost (see the class comment): 0, as the study's prompts have only four mean
     * lengths (547-1,034 tokens) and a cost per prompt token explains their TTFT as well.
     */
    public static final long FITTED_REQUEST_US = 0;
    /** The fitted per-prompt-token ingress cost, us per token (see {@link #FITTED_REQUEST_US}). */
    public static final double FITTED_TOKENIZE_US_PER_TOKEN = 11.48;

    public static final Setting<Boolean> ENABLED = Setting.derived("frontend.enabled", ValueType.bool(),
            "on, except with latency_model blackbox (its alpha coefficients already price the API server)",
            "Model the API server in front of and behind each engine: ingress before the engine core's wait queue, egress"
                    + " after each token is sampled, and the client network of requests without one.")
            .flag("--frontend");
    public static final Setting<Long> REQUEST = Setting.of("frontend.request_us",
            ValueType.duration(0, 10_000_000L).bareMicros().because("a request's handling beyond 10 s is no API server"),
            FITTED_REQUEST_US, "Fixed time per request between its arrival at the server and the engine core's wait queue:"
                    + " HTTP handling, validation, the hand-off to the engine core over ZMQ (fitted, see docs/fidelity.md).");
    public static final Setting<Double> TOKENIZE = Setting.of("frontend.tokenize_us_per_token",
            ValueType.real(0, 1000).in("us per prompt token", "tokenizers run at millions of tokens per second; a"
                    + " millisecond per token is no tokenizer"),
            FITTED_TOKENIZE_US_PER_TOKEN, "Time per prompt token before the engine core: tokenization and the prompt's"
                    + " handling (fitted, see docs/fidelity.md).");
    public static final Setting<Long> OUTPUT = Setting.of("frontend.output_us_per_token",
            ValueType.duration(0, 1_000_000L).bareMicros().because("a second per streamed token is no API server"), 20L,
            "Delay of every output token between its sampling and its chunk leaving the server: the engine core's output"
                    + " over ZMQ, incremental detokenization, the streamed chunk (vLLM issue #5206: ~20 us per token).");
    public static final Setting<Long> NETWORK_RTT = Setting.of("frontend.network_rtt_us",
            ValueType.duration(0, 60_000_000L).bareMicros().because("a round trip beyond a minute is no network"), 0L,
            "Client round trip for requests whose workload client has no network: of its own (traces); half before the"
                    + " server, half after. 0: the client is beside the server.")
            .flag("--network-rtt");

    /** Every front-end setting, in documentation order. */
    public static final List<Setting<?>> ALL = List.of(ENABLED, REQUEST, TOKENIZE, OUTPUT, NETWORK_RTT);

    /**
     * A bound {@code frontend:} section.
     *
     * @param enabled {@code frontend.enabled} as given, or null: derived from the latency model ({@link #resolve})
     * @param costs   the costs, enabled
     * @param given   paths of the cost settings the config or flags set (refused when the front end is off)
     */
    public record Bound(Boolean enabled, FrontEnd costs, List<String> given) {
        /** No {@code frontend:} section: the default front end. */
        public static final Bound DEFAULT = new Bound(null, new FrontEnd(true, FITTED_REQUEST_US, FITTED_TOKENIZE_US_PER_TOKEN,
                OUTPUT.defaultValue(), NETWORK_RTT.defaultValue()), List.of());

        public Bound {
            given = List.copyOf(given);
        }

        /** Whether the front end applies to a run whose latency model is blackbox ({@code blackbox}) or not. */
        public boolean on(boolean blackbox) {
            return enabled != null ? enabled : !blackbox;
        }

        /** The front end of a run whose latency model is blackbox ({@code blackbox}) or not. */
        public FrontEnd resolve(boolean blackbox) {
            return on(blackbox) ? costs : FrontEnd.OFF;
        }
    }

    /** The section's settings under {@code f} (problems go to it); whether costs given here apply is the run plan's to say. */
    public static Bound bind(ConfigNode f) {
        Boolean enabled = f.get(ENABLED);
        long request = f.get(REQUEST);
        double tokenize = f.get(TOKENIZE);
        long output = f.get(OUTPUT);
        long rtt = f.get(NETWORK_RTT);
        List<String> given = new java.util.ArrayList<>();
        for (Setting<?> s : List.of(REQUEST, TOKENIZE, OUTPUT, NETWORK_RTT)) {
            if (f.has(s.key())) {
                given.add(f.pathOf(s.key()));
            }
        }
        f.finish();
        return new Bound(enabled, new FrontEnd(true, request, tokenize, output, rtt), given);
    }

    private FrontEndSettings() {
    }
}
