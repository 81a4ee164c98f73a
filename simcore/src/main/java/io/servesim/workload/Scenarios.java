package io.servesim.workload;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.servesim.config.StrictJson;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Built-in workload scenarios ({@code workload: {scenario: name, ...overrides}}), one commented
 * YAML block each. Each key given next to {@code scenario} replaces the scenario's value for that key
 * as a whole ({@code arrival: {process: poisson}} replaces the scenario's arrival block, parameters
 * included; {@code clients: [...]} replaces all clients); other keys keep the scenario's values.
 *
 * <p>The {@code chat} and {@code code} presets are fitted to the Azure LLM inference trace 2023
 * (Azure/AzurePublicDataset @ b469a113, {@code AzureLLMInferenceTrace_conv.csv}: 19,366 requests
 * over 3,501.7 s, and {@code _code.csv}: 8,819 over 3,435.9 s; CC-BY 4.0, cite Splitwise, ISCA'24).
 * Method: maximum likelihood over every row of each trace for the lognormal (mu and sigma are the
 * mean and standard deviation of ln x), gamma (shape k solves ln k - digamma(k) = ln mean(x) - mean(ln x),
 * scale = mean / k), Weibull and exponential families; the family with the highest log-likelihood
 * is used, clamped to the trace's minimum and maximum. Fitted values (log-likelihoods in brackets):
 * <ul>
 *   <li>conv ContextTokens: gamma shape 1.3375, scale 863.33 (-155,462; lognormal mu 6.6333 sigma 0.9852: -155,650)</li>
 *   <li>conv GeneratedTokens: lognormal mu 5.0190, sigma 0.8590 (-121,734; gamma: -121,767)</li>
 *   <li>code ContextTokens: gamma shape 0.9302, scale 2201.43 (-76,045; Weibull -76,053; lognormal -76,948)</li>
 *   <li>code GeneratedTokens: lognormal mu 2.7882, sigma 0.8472 (-35,640; Weibull -38,043)</li>
 *   <li>inter-arrival gaps: conv gamma shape 0.871 (CV 1.072; 13,880 vs Weibull 13,864), code Weibull
 *       shape 0.4192 (CV 2.910; 14,478 vs gamma 12,279); rates 19,365 / 3,501.7 s = 5.530 and
 *       8,818 / 3,435.9 s = 2.566 requests per second.</li>
 * </ul>
 * {@code bursty-traffic} and {@code diurnal-cycle} take the parameters of BLIS's macro plan (inference-sim/inference-sim
 * @ 7d4e8bac, docs/plans/2026-02-11-macro-implementation-plan-v2.md, its built-in scenario table): spikes of 10x the
 * baseline rate every minute, and a day whose peak is 10x its trough.
 */
public final class Scenarios {
    private static final ObjectMapper YAML = StrictJson.yaml();
    private static final Map<String, String> SCENARIOS = new LinkedHashMap<>();
    /** The keys a scenario sets for the whole workload; its others describe its single client. */
    private static final List<String> WORKLOAD_KEYS = List.of("aggregate_rate", "num_requests", "horizon_us", "clients");

    static {
        SCENARIOS.put("chat", """
                # Azure LLM inference trace 2023, conversation service, fitted by maximum likelihood (see Scenarios).
                aggregate_rate: 5.53                  # 19,365 gaps over 3,501.7 s
                num_requests: 10000
                id: chat
                slo_class: interactive
                arrival: {process: gamma, cv: 1.072}  # gamma MLE of the gaps: shape 0.871
                input_distribution: {type: gamma, params: {shape: 1.3375, scale: 863.33, min: 2, max: 14050}}
                output_distribution: {type: lognormal, params: {mu: 5.0190, sigma: 0.8590, min: 7, max: 1000}}
                """);
        SCENARIOS.put("code", """
                # Azure LLM inference trace 2023, coding service, fitted by maximum likelihood (see Scenarios).
                aggregate_rate: 2.566                 # 8,818 gaps over 3,435.9 s
                num_requests: 10000
                id: code
                slo_class: interactive
                arrival: {process: weibull, cv: 2.91} # Weibull MLE of the gaps: shape 0.4192
                input_distribution: {type: gamma, params: {shape: 0.9302, scale: 2201.43, min: 3, max: 7437}}
                output_distribution: {type: lognormal, params: {mu: 2.7882, sigma: 0.8472, min: 6, max: 1899}}
                """);
        SCENARIOS.put("bursty-traffic", """
                # Chat-sized requests whose rate jumps 10x for 10 s every minute; mean 10 req/s
                # (baseline 10 x 60 / (60 + 9 x 10) = 4 req/s, spikes 40 req/s).
                aggregate_rate: 10
                num_requests: 5000
                id: bursty
                slo_class: interactive
                arrival: {process: bursty, spike_factor: 10, spike_interval_us: 60000000, spike_duration_us: 10000000,
                          first_spike_us: 30000000}
                input_distribution: {type: gamma, params: {shape: 1.3375, scale: 863.33, min: 2, max: 14050}}
                output_distribution: {type: lognormal, params: {mu: 5.0190, sigma: 0.8590, min: 7, max: 1000}}
                """);
        SCENARIOS.put("diurnal-cycle", """
                # One simulated day of chat traffic, mean 5 req/s, peak 10x the trough at 14:00.
                aggregate_rate: 5
                horizon_us: 86400000000
                id: diurnal
                slo_class: interactive
                arrival: {process: diurnal, period_us: 86400000000, peak_to_trough_ratio: 10, peak_us: 50400000000}
                input_distribution: {type: gamma, params: {shape: 1.3375, scale: 863.33, min: 2, max: 14050}}
                output_distribution: {type: lognormal, params: {mu: 5.0190, sigma: 0.8590, min: 7, max: 1000}}
                """);
        SCENARIOS.put("unfair-tenants", """
                # A batch tenant sends 90% of the requests (long prompts), a realtime tenant 10% (short ones):
                # fairness and priority policies must keep the realtime tenant's latency low.
                aggregate_rate: 12
                num_requests: 5000
                clients:
                  - id: batch
                    tenant_id: tenant-batch
                    slo_class: batch
                    rate_fraction: 0.9
                    arrival: {process: gamma, cv: 2}
                    input_distribution: {type: lognormal, params: {mean: 3000, sigma: 0.6, min: 64, max: 16000}}
                    output_distribution: {type: lognormal, params: {mean: 400, sigma: 0.5, min: 16, max: 2048}}
                  - id: realtime
                    tenant_id: tenant-realtime
                    slo_class: realtime
                    rate_fraction: 0.1
                    arrival: {process: poisson}
                    input_distribution: {type: lognormal, params: {mean: 300, sigma: 0.5, min: 16, max: 2000}}
                    output_distribution: {type: lognormal, params: {mean: 100, sigma: 0.5, min: 4, max: 512}}
                    priority_distribution: {type: constant, params: {value: 1}}
                """);
        SCENARIOS.put("prefix-heavy", """
                # 80% of requests start with one of two shared system prompts (2048 and 1024 tokens):
                # prefix caching and cache-aware routing matter.
                aggregate_rate: 10
                num_requests: 5000
                clients:
                  - id: agent-a
                    rate_fraction: 0.5
                    prefix: {group: tools-a, length: 2048}
                    input_distribution: {type: lognormal, params: {mean: 400, sigma: 0.7, min: 16, max: 4000}}
                    output_distribution: {type: exponential, params: {mean: 150, max: 2048}}
                  - id: agent-b
                    rate_fraction: 0.3
                    prefix: {group: tools-b, length: 1024}
                    input_distribution: {type: lognormal, params: {mean: 400, sigma: 0.7, min: 16, max: 4000}}
                    output_distribution: {type: exponential, params: {mean: 150, max: 2048}}
                  - id: unique
                    rate_fraction: 0.2
                    input_distribution: {type: lognormal, params: {mean: 1200, sigma: 0.8, min: 16, max: 8000}}
                    output_distribution: {type: exponential, params: {mean: 200, max: 2048}}
                """);
        SCENARIOS.put("mixed-slo", """
                # Realtime (short, high priority), interactive (multi-turn chat) and batch (long, bursty) traffic.
                aggregate_rate: 10
                num_requests: 5000
                clients:
                  - id: realtime
                    tenant_id: apps
                    slo_class: realtime
                    rate_fraction: 0.2
                    input_distribution: {type: lognormal, params: {mean: 200, sigma: 0.5, min: 8, max: 1000}}
                    output_distribution: {type: lognormal, params: {mean: 60, sigma: 0.5, min: 2, max: 256}}
                    priority_distribution: {type: constant, params: {value: 2}}
                  - id: interactive
                    tenant_id: apps
                    slo_class: interactive
                    rate_fraction: 0.5
                    prefix: {group: assistant-system-prompt, length: 512}
                    input_distribution: {type: gamma, params: {shape: 1.3375, scale: 863.33, min: 2, max: 14050}}
                    output_distribution: {type: lognormal, params: {mu: 5.0190, sigma: 0.8590, min: 7, max: 1000}}
                    priority_distribution: {type: constant, params: {value: 1}}
                    conversation: {probability: 0.5, turns: {type: uniform, params: {min: 2, max: 6}},
                                   think_time_us: {type: exponential, params: {mean: 5000000}}, context_growth: accumulate}
                  - id: batch
                    tenant_id: offline
                    slo_class: batch
                    rate_fraction: 0.3
                    arrival: {process: gamma, cv: 3}
                    input_distribution: {type: lognormal, params: {mean: 4000, sigma: 0.5, min: 256, max: 16000}}
                    output_distribution: {type: lognormal, params: {mean: 500, sigma: 0.5, min: 16, max: 2048}}
                """);
    }

    private Scenarios() {
    }

    /** Scenario names, in documentation order. */
    public static List<String> names() {
        return List.copyOf(SCENARIOS.keySet());
    }

    /** The commented YAML of scenario {@code name}. */
    public static String yaml(String name) {
        String y = SCENARIOS.get(name);
        if (y == null) {
            throw new IllegalArgumentException("unknown scenario '" + name + "'; valid: " + String.join(", ", names()));
        }
        return y;
    }

    /**
     * Scenario {@code name} with the keys of {@code overrides} replacing its own (a new tree). {@code clients} given
     * replaces a single-client scenario's client too: the client keys it sets at its top level go with it.
     */
    public static ObjectNode withOverrides(String name, ObjectNode overrides) {
        try {
            ObjectNode base = (ObjectNode) YAML.readTree(yaml(name));
            if (overrides.has("clients")) {
                base.retain(WORKLOAD_KEYS);
            }
            base.setAll(overrides.deepCopy());
            return base;
        } catch (IOException e) {
            throw new UncheckedIOException("built-in scenario " + name + " is not valid YAML", e);
        }
    }
}
