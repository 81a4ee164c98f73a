package io.servesim.run;

import io.servesim.config.Setting;
import io.servesim.config.ValueType;
import io.servesim.latency.KvCacheDtype;
import io.servesim.latency.LatencyKind;
import io.servesim.latency.Quantization;
import java.util.List;

/**
 * The {@code deployment:} settings of an aggregated fleet: what is served (the model, by Hugging Face id or a
 * {@code config.json}), on what (a GPU of the bundled table or of {@code gpus}, at a tensor-parallel degree), priced
 * by which latency model, and how many replicas ({@code deployment.pd} and {@code architecture} are P/D's, in their
 * own section).
 */
public final class DeploymentSettings {
    public static final Setting<String> MODEL = Setting.derived("deployment.model", ValueType.text(),
            "required, unless deployment.coefficients gives a blackbox model",
            "The served model: a Hugging Face id (case-insensitive; the bundled configs in sweeps/data/models) or the path"
                    + " of a config.json (relative to the config; the flag's path is relative to the working directory).")
            .flag("--model");
    public static final Setting<String> HARDWARE = Setting.derived("deployment.hardware", ValueType.text(),
            "required, unless deployment.coefficients gives a blackbox model",
            "The GPU: a bundled name (H100, H200, B200, A100-80GB, L40S, RTX4090, RTXPRO6000, or an alias) or a row of"
                    + " deployment.gpus.")
            .flag("--hardware");
    public static final Setting<Long> TP = Setting.of("deployment.tp",
            ValueType.integer(1, 64).in("GPUs", "at least one GPU; a tensor-parallel group of more than 64 GPUs is beyond"
                    + " any deployment"), 1L,
            "Tensor-parallel degree: GPUs per replica (vLLM tensor_parallel_size).")
            .flag("--tp").alias("tensor_parallelism");
    public static final Setting<String> LATENCY_MODEL = Setting.of("deployment.latency_model",
            ValueType.choice(LatencyKind.names()), LatencyKind.AUTO.configName(),
            "How a step is priced: blackbox (trained coefficients), roofline (operators of the model on the GPU's"
                    + " datasheet), profiled (measured per-layer tables); auto takes the trained coefficients when they exist"
                    + " for the model, GPU and TP (or, for a model without, for a bundled model of the same architecture,"
                    + " named in the description), else the roofline.")
            .flag("--latency-model");
    public static final Setting<String> COEFFICIENTS = Setting.derived("deployment.coefficients", ValueType.text(),
            "the trained coefficients of the model, GPU and TP (BLIS's defaults.yaml), when latency_model is blackbox or auto",
            "Blackbox coefficients: the path of a file servesim calibrate wrote, or inline {alpha: [a0, a1, a2], beta: [b0,"
                    + " b1, b2]} in microseconds.");
    public static final Setting<String> PROFILE = Setting.derived("deployment.profile", ValueType.text(),
            "the bundled profile of the model and GPU",
            "A measured-profile directory in LLMServingSim's layout, for latency_model: profiled (relative to the config);"
                    + " its meta.yaml must name the run's GPU and a model of the served model's layer shape.");
    public static final Setting<String> GPUS = Setting.derived("deployment.gpus", ValueType.text(), "only the bundled GPUs",
            "A file of GPU rows in the bundled gpus.yaml's format (datasheet numbers) that hardware may then name (relative"
                    + " to the config; the flag's path is relative to the working directory).")
            .flag("--gpus");
    public static final Setting<String> KV_CACHE_DTYPE = Setting.of("deployment.kv_cache_dtype",
            ValueType.choice(KvCacheDtype.names()), KvCacheDtype.AUTO.configName(),
            "How the KV cache stores keys and values (vLLM --kv-cache-dtype): auto in the model's dtype; fp8 (fp8_e4m3)"
                    + " or fp8_e5m2 in one byte per element, so the cache holds twice the tokens of a bf16 one and a decode"
                    + " step reads half the KV bytes. Priced by the roofline (auto then takes it).")
            .flag("--kv-cache-dtype");
    public static final Setting<String> QUANTIZATION = Setting.of("deployment.quantization",
            ValueType.choice(Quantization.names()), Quantization.AUTO.configName(),
            "How the weights are stored (vLLM --quantization): auto as the checkpoint's config.json says; fp8 quantizes a"
                    + " 16-bit checkpoint's linear layers to one byte per weight at load (W8A8 on GPUs with FP8 tensor"
                    + " cores, weight-only W8A16 through FP8 Marlin on those without). Priced by the roofline (auto then"
                    + " takes it).")
            .flag("--quantization");
    public static final Setting<Double> ENCODER_US_PER_TOKEN = Setting.derived("deployment.encoder_us_per_token",
            ValueType.real(0, 1e6).in("us", "a time cannot be negative, and a second per token is beyond any encoder"),
            "derived from the model's vision_config (Llama 4 layout) by the roofline; required for multimodal clients"
                    + " on a model without one",
            "GPU time of the multimodal encoder per image, audio or video token it encodes, added to the step that"
                    + " encodes the item; replaces the vision_config roofline.")
            .flag("--encoder-us-per-token");
    public static final Setting<Long> INSTANCES = Setting.of("deployment.instances",
            ValueType.integer(1, 100_000).in("replicas", "at least one; a fleet of more than 100,000 replicas is beyond"
                    + " any deployment"), 1L,
            "Engine replicas behind the control plane (BLIS num-instances); under autoscaling, the replicas ready at the"
                    + " start.")
            .flag("--num-instances").alias("num_instances");

    public static final Setting<Long> DP = Setting.of("deployment.dp",
            ValueType.integer(1, 1024).in("ranks", "at least one rank; more than 1,024 data-parallel ranks of one"
                    + " deployment are beyond any vLLM deployment"), 1L,
            "Data-parallel ranks (vLLM data_parallel_size): engines of tp GPUs each, with their own scheduler and KV"
                    + " cache, behind vLLM's DP load balancer (policies.routing defaults to dp-load-balancer); one"
                    + " deployment per run (deployment.instances 1). The vLLM core's: SGLang's --dp-size replicas are"
                    + " deployment.instances.")
            .flag("--dp");
    public static final Setting<Boolean> EP = Setting.of("deployment.ep", ValueType.bool(), false,
            "Expert parallelism (vLLM enable_expert_parallel) of a MoE model over the dp ranks: experts sharded over"
                    + " them, every MoE layer's dispatch and combine collectives over the GPUs' link, the ranks stepping in"
                    + " lockstep (an idle one runs a dummy batch). Needs a MoE model, dp above 1, tp 1, and latency_model"
                    + " roofline or profiled.")
            .flag("--ep");

    public static final Setting<Double> EP_BALANCEDNESS = Setting.of("deployment.ep_balancedness",
            ValueType.real(0.01, 1.0).in("", "a share: the mean expert load per rank over the busiest rank's; below 0.01 one"
                    + " rank would carry over 100 times the mean"), 1.0,
            "Expert load balance of an expert-parallel deployment, as vLLM's EPLB logs it (balancedness: the mean tokens"
                    + " per EP rank over the busiest rank's, --eplb-config '{\"log_balancedness\": true}'): the busiest"
                    + " rank's routed experts take 1 / ep_balancedness times the mean rank's token-expert pairs, and the"
                    + " lockstep group waits for it. 1: a balanced gate. Needs deployment.ep.")
            .flag("--ep-balancedness");

    /** Every deployment setting, in documentation order. */
    public static final List<Setting<?>> ALL = List.of(MODEL, HARDWARE, TP, DP, EP, EP_BALANCEDNESS, LATENCY_MODEL, COEFFICIENTS, PROFILE,
            GPUS, KV_CACHE_DTYPE, QUANTIZATION, ENCODER_US_PER_TOKEN, INSTANCES);

    private DeploymentSettings() {
    }
}
