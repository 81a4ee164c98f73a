package io.servesim.metrics;

import static io.servesim.metrics.Metric.Group.AUTOSCALING;
import static io.servesim.metrics.Metric.Group.CLUSTER;
import static io.servesim.metrics.Metric.Group.KV_TIERS;
import static io.servesim.metrics.Metric.Group.PD;
import static io.servesim.metrics.Metric.Group.RUN;
import static io.servesim.metrics.Metric.Stat.MEAN;
import static io.servesim.metrics.Metric.Stat.P50;
import static io.servesim.metrics.Metric.Stat.P90;
import static io.servesim.metrics.Metric.Stat.P99;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The metric catalog: every output quantity of a run, declared once ({@link Metric}), in the order of the {@code cells/}
 * columns. The run summary JSON ({@link SummaryJson}), a sweep's {@code cells/} rows and {@code schemas/cell.avsc},
 * {@code evaluate}'s raw metrics in every format, the fitness keys ({@link FitnessWeights#KEYS}), the report's panels and
 * units, the sweep's result table, {@code servesim metrics} and {@code docs/metrics-reference.md} all read names, units
 * and descriptions from here; adding a metric is one declaration and its producer (a component of the summary part it
 * belongs to). A name is declared once: {@link #ALL} refuses duplicates among metrics, columns and the breakdowns beside
 * them in one JSON object as it is built.
 */
public final class MetricCatalog {
    private static final String VLLM_LOGGERS = "vLLM's Prometheus metrics (vllm/v1/metrics/loggers.py)";
    private static final String VLLM_BENCH = "vLLM's benchmark_serving.py (calculate_metrics)";
    private static final String BLIS_G3 = "BLIS macro plan, G.3 RawMetrics (inference-sim/inference-sim @ 7d4e8bac,"
            + " docs/plans/2026-02-11-macro-implementation-plan-v2.md)";
    private static final String BLIS_D6 = "BLIS macro plan, D.6 cost modelling (inference-sim/inference-sim @ 7d4e8bac,"
            + " docs/plans/2026-02-11-macro-implementation-plan-v2.md)";
    private static final String BLIS_TIERS = "BLIS macro plan, PR 14 tiered KV metrics (inference-sim/inference-sim"
            + " @ 7d4e8bac, docs/plans/2026-02-11-macro-implementation-plan-v2.md)";
    private static final String DISTSERVE = "DistServe (Zhong et al., OSDI'24)";
    private static final String COMPLETED = "no request completed";
    private static final String REASONING = "a reasoning model's output split as vLLM's reasoning parsers split it,"
            + " reasoning_content then content (vllm/reasoning/, docs/features/reasoning_outputs.md)";
    private static final String NO_TRANSFER = "no transfer completed";
    private static final String SPEC_DECODE = "vLLM's SpecDecodingLogging (vllm/v1/spec_decode/metrics.py)";
    private static final String ENCODER = "vLLM's encoder scheduling (vllm/v1/core/sched/scheduler.py _try_schedule_encoder_inputs,"
            + " vllm/v1/core/encoder_cache_manager.py)";

    /** Every metric, in the order of the {@code cells/} columns. */
    public static final List<Metric> ALL = checked(List.of(
            Metric.text("latency_model", RUN,
                    "Latency model the run priced its steps with (blackbox, roofline, profiled); under P/D both pools'"
                            + " ('pd: prefill blackbox, decode roofline')."),
            Metric.text("latency_description", RUN,
                    "Which model, GPU, TP and coefficients or constants the latency model uses; under P/D both pools'.")
                    .jsonOnly(),
            Metric.text("latency_calibration", RUN,
                    s -> s.text("latency_calibration_note").isEmpty() ? "calibrated" : "uncalibrated",
                    "calibrated, or uncalibrated when no GEMM or engine-step measurement of the run's GPU was used to obtain its latency model"
                            + " (a roofline on a GPU outside the constants' fit, such as a deployment.gpus row, or"
                            + " coefficients fitted on another GPU or model); latency_calibration_note says why."),
            Metric.text("latency_calibration_note", RUN,
                    "Why the latency model is uncalibrated; empty when it is calibrated.").jsonOnly(),
            Metric.integer("instances", "replicas", CLUSTER, s -> s.cluster().instances(),
                    "Engine instances (replicas) in the cluster; under autoscaling the replica slots that ever held a"
                            + " replica (see peak_replicas, mean_replicas); under P/D both pools' (prefill_replicas +"
                            + " decode_replicas)."),
            Metric.count("total_kv_blocks", "blocks", RUN,
                    "KV-cache blocks per instance; under P/D the mean over both pools' instances (the deployment's"
                            + " blocks / instances, rounded down; each pool's own is in the run summary's pd.prefill and"
                            + " pd.decode).").source("vLLM num_gpu_blocks (vllm/v1/core/kv_cache_utils.py)"),
            Metric.count("injected", "requests", RUN, "Requests that arrived."),
            Metric.count("completed", "requests", RUN, "Requests that finished.").higher()
                    .source(VLLM_LOGGERS + ": vllm:request_success"),
            Metric.count("dropped", "requests", RUN,
                    "Requests dropped as unservable (beyond max_model_len or the whole KV cache).").lower(),
            Metric.count("rejected", "requests", RUN, "Requests rejected at admission.").lower(),
            Metric.number("rejection_rate", "fraction", RUN, s -> perInjected(s.count("rejected"), s),
                    "rejected / injected (0 when nothing arrived).").lower().fitness(Normalisation.complement()),
            Metric.count("unfinished", "requests", RUN, "Requests still queued or running at the horizon.").lower(),
            Metric.count("preemptions", "preemptions", RUN,
                    "Preemptions (recompute) under KV pressure.").lower().source(VLLM_LOGGERS + ": vllm:num_preemptions"),
            Metric.number("preemptions_per_request", "preemptions/request", RUN,
                    s -> perInjected(s.count("preemptions"), s), "preemptions / injected (0 when nothing arrived).")
                    .lower().source(BLIS_G3),
            Metric.count("kv_allocation_failures", "allocations", RUN,
                    "Failed KV allocations; each triggers a preemption or stops admission for the step.").lower(),
            Metric.distribution("ttft_ms", RUN,
                    "time to first token on the server side, from the request's arrival at the server to its first output token"
                            + " leaving it (the serving front end's ingress and egress included), of completed requests",
                    COMPLETED, MEAN, P50, P90, P99).lower().fitness(Normalisation.inverse(1000, "ms"))
                    .source(VLLM_LOGGERS + ": vllm:time_to_first_token_seconds; " + VLLM_BENCH + ": ttfts"),
            Metric.distribution("tpot_ms", RUN,
                    "time per output token, each request's mean inter-token latency after its first token (completed"
                            + " requests with more than one output token)",
                    "no request qualifies", MEAN, P50, P90, P99).lower().fitness(Normalisation.inverse(100, "ms"))
                    .source(VLLM_LOGGERS + ": vllm:request_time_per_output_token_seconds; " + VLLM_BENCH
                            + ": tpots (output_len > 1)"),
            Metric.distribution("itl_ms", RUN,
                    "inter-token latency over every output token after the first, or under speculative decoding over every"
                            + " chunk of tokens one step gave a request (HdrHistogram, 3 significant digits)",
                    "no second token was generated", MEAN, P50, P90, P99).lower()
                    .fitness(Normalisation.inverse(100, "ms"))
                    .source(VLLM_LOGGERS + ": vllm:inter_token_latency_seconds; " + VLLM_BENCH + ": itls"),
            Metric.distribution("e2e_ms", RUN,
                    "end-to-end latency on the server side, from the request's arrival at the server to its last token leaving it"
                            + " (the serving front end included), of completed requests",
                    COMPLETED, MEAN, P50, P90, P99).lower().fitness(Normalisation.inverse(10_000, "ms"))
                    .source(VLLM_LOGGERS + ": vllm:e2e_request_latency_seconds; " + VLLM_BENCH + ": e2els"),
            Metric.distribution("client_ttft_ms", RUN,
                    "time to first token as the client sees it, send to receipt: ttft_ms plus the client network's two legs"
                            + " (a workload client's network, else frontend.network_rtt_us; completed requests)",
                    COMPLETED, MEAN, P50, P90, P99).lower().fitness(Normalisation.inverse(1000, "ms"))
                    .source(VLLM_BENCH + ": ttfts, measured at the client"),
            Metric.distribution("client_e2e_ms", RUN,
                    "end-to-end latency as the client sees it, send to receipt of the last token (completed requests)",
                    COMPLETED, MEAN, P50, P90, P99).lower().fitness(Normalisation.inverse(10_000, "ms"))
                    .source(VLLM_BENCH + ": e2els, measured at the client"),
            Metric.distribution("scheduling_delay_ms", RUN,
                    "time from arrival to first being scheduled into a step", "no request was scheduled", MEAN, P99)
                    .lower(),
            Metric.distribution("queueing_delay_ms", RUN,
                    "queue time as vLLM logs it: from the engine core's scheduler taking a request in (between steps) to first"
                            + " deciding to run it (a step ahead under async scheduling); a blackbox model's delay before the"
                            + " engine (BLIS's queueing delay) comes before the intake and is not in it", "no request was scheduled",
                    MEAN, P99).lower().source(VLLM_LOGGERS + ": vllm:request_queue_time_seconds"),
            Metric.number("duration_s", "s", RUN, "Simulated time from the first arrival to the end of the run."),
            Metric.optional("offered_rps", "requests/s", RUN,
                    "Requests offered per second: injected / the arrival window (first to last arrival); null when every"
                            + " request arrived at one instant (or none did)."),
            Metric.number("throughput_rps", "requests/s", RUN,
                    "Completed requests per second of simulated time (completed / duration_s).").higher()
                    .fitness(Normalisation.overOffered(s -> s.count("completed"), "completed"))
                    .source(VLLM_BENCH + ": request_throughput"),
            Metric.number("input_tokens_per_s", "tokens/s", RUN,
                    "Prompt tokens of completed requests per second of simulated time.").higher()
                    .source(VLLM_LOGGERS + ": rate of vllm:prompt_tokens"),
            Metric.number("output_tokens_per_s", "tokens/s", RUN,
                    "Output tokens of completed requests per second of simulated time.").higher()
                    .source(VLLM_BENCH + ": output_throughput"),
            Metric.number("answer_tokens_per_s", "tokens/s", RUN,
                    "Output tokens of completed requests that were answer, not reasoning, per second of simulated time"
                            + " (output_tokens_per_s without the reasoning clients' reasoning tokens).").higher()
                    .source(REASONING),
            Metric.distribution("ttfat_ms", RUN,
                    "time to first answer token (arrival at the engine to the first output token after the reasoning"
                            + " tokens) of completed requests with reasoning tokens and an answer",
                    "no completed request reasoned and answered", MEAN, P50, P90, P99).lower().source(REASONING),
            Metric.distribution("client_ttfat_ms", RUN,
                    "time to first answer token as the client sees it (send to receipt of the first answer token: the"
                            + " client network's legs included; with the whole response when not streaming) of completed"
                            + " requests with reasoning tokens and an answer",
                    "no completed request reasoned and answered", MEAN, P50, P90, P99).lower().source(REASONING),
            Metric.count("spec_verify_steps", "steps", RUN,
                    "Verify steps of speculative decoding that held draft tokens, one per request and step, over all"
                            + " instances (0 without engine.speculative).")
                    .source(VLLM_LOGGERS + ": vllm:spec_decode_num_drafts"),
            Metric.count("spec_draft_tokens", "tokens", RUN,
                    "Draft tokens speculative decoding proposed and the target verified, over all instances (0 without"
                            + " engine.speculative).").source(VLLM_LOGGERS + ": vllm:spec_decode_num_draft_tokens"),
            Metric.count("spec_accepted_tokens", "tokens", RUN,
                    "Of spec_draft_tokens, those the target accepted.").higher()
                    .source(VLLM_LOGGERS + ": vllm:spec_decode_num_accepted_tokens"),
            Metric.optional("spec_acceptance_rate", "fraction", RUN,
                    s -> perOrNaN(s.count("spec_accepted_tokens"), s.count("spec_draft_tokens")),
                    "spec_accepted_tokens / spec_draft_tokens; null when nothing was drafted.").higher()
                    .source(SPEC_DECODE + ": draft acceptance rate"),
            Metric.optional("spec_mean_accepted_length", "tokens/step", RUN,
                    s -> 1 + perOrNaN(s.count("spec_accepted_tokens"), s.count("spec_verify_steps")),
                    "Tokens a request gained per verify step, the target's own token included: 1 + spec_accepted_tokens /"
                            + " spec_verify_steps; null when no step verified drafts.").higher()
                    .source(SPEC_DECODE + ": mean acceptance length"),
            Metric.count("encoder_items", "items", RUN,
                    "Image, audio and video items the multimodal encoder ran, over all instances (0 without"
                            + " workload clients[].multimodal); an item a request needed again while its encoder output was"
                            + " cached is not run again (encoder_cache_hits).").source(ENCODER),
            Metric.count("encoder_tokens", "tokens", RUN,
                    "Encoder tokens of the items in encoder_items (each item's placeholder tokens in the prompt).")
                    .source(ENCODER),
            Metric.count("encoder_cache_hits", "items", RUN,
                    "Lookups that found an item's encoder output in the instance's encoder cache, once per scheduled"
                            + " chunk that needed the item (an item spanning several chunks is found again by each later one,"
                            + " as vLLM checks it per step; another request with the same item finds it too).")
                    .higher().source(ENCODER),
            Metric.count("slo_met", "requests", CLUSTER, s -> s.cluster().sloMet(),
                    "Completed requests meeting every target of their SLO class (TTFT, TPOT, E2E).").higher(),
            Metric.number("slo_attainment", "fraction", CLUSTER, s -> s.cluster().sloAttainment(),
                    "slo_met / injected: rejected, dropped and unfinished requests miss.").higher()
                    .fitness(Normalisation.asIs()).source(DISTSERVE + ": SLO attainment"),
            Metric.number("goodput_rps", "requests/s", CLUSTER, s -> s.cluster().goodputRps(),
                    "Requests meeting their SLO per second of simulated time (DistServe's goodput when the SLO classes set"
                            + " TTFT and TPOT targets only, as the built-in realtime, interactive and standard classes do).")
                    .higher().fitness(Normalisation.overOffered(s -> s.cluster().sloMet(), "slo_met"))
                    .source(DISTSERVE + ": goodput; " + VLLM_BENCH + ": request_goodput"),
            Metric.integer("gpus", "GPUs", PD, s -> s.pd().gpus(),
                    "GPUs of the deployment: replicas x TP (both pools under P/D; under autoscaling the peak replicas x"
                            + " TP)."),
            Metric.optional("goodput_per_gpu_rps", "requests/s per GPU", PD, s -> s.pd().goodputPerGpuRps(),
                    "goodput_rps / GPUs held on average: requests meeting their SLO per second per GPU (under autoscaling"
                            + " per GPU-second held: mean replicas x TP), for comparing deployments of different sizes"
                            + " (aggregated against P/D, fixed against autoscaled); null without GPUs.").higher()
                    .source(DISTSERVE + ": goodput per GPU"),
            Metric.number("prefix_hit_rate", "fraction", RUN,
                    "Prefix-cache hit tokens (GPU and CPU tier) / prompt tokens looked up at first admissions; a"
                            + " preempted request's readmissions are left out, as vLLM's exported rate does.").higher()
                    .fitness(Normalisation.asIs())
                    .source(VLLM_LOGGERS + ": vllm:prefix_cache_hits / vllm:prefix_cache_queries"),
            Metric.number("preempted_prefix_hit_rate", "fraction", RUN,
                    "Prefix-cache hit tokens / tokens looked up at readmissions of preempted requests (mostly re-hits of"
                            + " their own recomputed blocks); 0 without preemptions.")
                    .source("vLLM PrefixCacheStats.preempted_hits / preempted_queries (vllm/v1/metrics/stats.py)"),
            Metric.count("cpu_kv_blocks", "blocks", KV_TIERS, s -> s.kvTiers().cpuKvBlocks(),
                    "CPU-tier KV blocks per instance (engine.kv_cpu_blocks); 0 without a CPU tier. Under P/D the larger"
                            + " pool's; each pool's own is pd.prefill.cpu_kv_blocks and pd.decode.cpu_kv_blocks, and the"
                            + " tier's counts here are the pools' together.").jsonOnly(),
            Metric.number("gpu_hit_rate", "fraction", KV_TIERS, s -> s.kvTiers().gpuHitRate(),
                    "Prompt tokens found in the GPU KV cache / prompt tokens looked up at first admissions.").higher()
                    .source(BLIS_TIERS),
            Metric.number("cpu_hit_rate", "fraction", KV_TIERS, s -> s.kvTiers().cpuHitRate(),
                    "Prompt tokens found in the CPU KV tier (and reloaded) / prompt tokens looked up at first admissions;"
                            + " gpu_hit_rate + this is prefix_hit_rate; 0 without a CPU tier.").higher()
                    .source(VLLM_LOGGERS + ": vllm:external_prefix_cache_hits / vllm:external_prefix_cache_queries"),
            Metric.number("preempted_gpu_hit_rate", "fraction", KV_TIERS, s -> s.kvTiers().preemptedGpuHitRate(),
                    "Tokens found in the GPU KV cache / tokens looked up at readmissions of preempted requests; 0 without"
                            + " preemptions.")
                    .source("vLLM PrefixCacheStats.preempted_hits / preempted_queries (vllm/v1/metrics/stats.py), GPU"
                            + " part"),
            Metric.number("preempted_cpu_hit_rate", "fraction", KV_TIERS, s -> s.kvTiers().preemptedCpuHitRate(),
                    "Tokens found in the CPU KV tier (and reloaded) / tokens looked up at readmissions of preempted"
                            + " requests; preempted_gpu_hit_rate + this is preempted_prefix_hit_rate; 0 without a CPU tier"
                            + " or preemptions.")
                    .source("vLLM connector_prefix_cache_stats (vllm/v1/core/kv_cache_manager.py)"),
            Metric.count("kv_offloaded_blocks", "blocks", KV_TIERS, s -> s.kvTiers().offloadedBlocks(),
                    "KV blocks copied from the GPU to the CPU tier on eviction, all instances.").source(BLIS_TIERS),
            Metric.count("kv_reloaded_blocks", "blocks", KV_TIERS, s -> s.kvTiers().reloadedBlocks(),
                    "KV blocks copied from the CPU tier back to the GPU on a prefix hit, all instances.")
                    .source(BLIS_TIERS),
            Metric.count("kv_cpu_evictions", "blocks", KV_TIERS, s -> s.kvTiers().cpuEvictions(),
                    "CPU-tier copies dropped by its LRU to make room, all instances.").lower(),
            Metric.count("kv_transfer_bytes", "bytes", KV_TIERS, s -> s.kvTiers().transferBytes(),
                    "Bytes moved over the GPU-CPU KV links, both directions, all instances.").lower().source(BLIS_TIERS),
            Metric.number("kv_transfer_ms", "ms", KV_TIERS, s -> s.kvTiers().transferMs(),
                    "Time the GPU-CPU KV links spent transferring (base latency + bytes / bandwidth per transfer),"
                            + " all instances.").lower().source(BLIS_TIERS),
            Metric.count("kv_thrashed_blocks", "blocks", KV_TIERS, s -> s.kvTiers().thrashedBlocks(),
                    "KV blocks reloaded within 1 ms of being offloaded, all instances.").lower()
                    .source("BLIS core engine, tiered cache (inference-sim/inference-sim @ ce85515e,"
                            + " docs/concepts/core-engine.md)"),
            Metric.number("kv_thrashing_rate", "fraction", KV_TIERS, s -> s.kvTiers().thrashingRate(),
                    "kv_thrashed_blocks / kv_reloaded_blocks; 0 when nothing was reloaded.").lower()
                    .source(BLIS_TIERS + ": KVThrashingRate"),
            Metric.number("kv_utilization_mean", "fraction", RUN,
                    "Step-time-weighted mean share of KV blocks in use (mean over instances).")
                    .source(VLLM_LOGGERS + ": vllm:kv_cache_usage_perc"),
            Metric.number("kv_utilization_peak", "fraction", RUN,
                    "Peak share of KV blocks in use.").source(VLLM_LOGGERS + ": vllm:kv_cache_usage_perc"),
            Metric.number("batch_size_mean", "requests/step", RUN,
                    "Mean sequences per engine step.").source(VLLM_LOGGERS + ": vllm:num_requests_running"),
            Metric.number("load_imbalance_cv", "ratio", CLUSTER, s -> s.cluster().loadImbalanceCv(),
                    "Coefficient of variation (population std / mean) of requests per instance, each counted once at the"
                            + " instance it was last routed to; 0 = perfectly even. Under P/D the mean of the two pools'"
                            + " own CVs (a remote request counts at its prefill and at its decode instance).").lower(),
            Metric.optional("jain_fairness", "index", CLUSTER, s -> s.cluster().jainFairness(),
                    "Jain's index over tenants of per-tenant SLO attainment, (sum x)^2 / (n sum x^2): 1 = equal;"
                            + " undefined (null) when no tenant met an SLO, where BLIS returns 1.")
                    .higher().fitness(Normalisation.asIs()).source(BLIS_G3 + ": JainFairnessIndex"),
            Metric.count("admission_delays", "decisions", CLUSTER, s -> s.cluster().admissionDelays(),
                    "Admission DELAY decisions.").lower(),
            Metric.count("priority_inversions", "request pairs", CLUSTER, s -> s.cluster().priorityInversions(),
                    "Pairs of requests at one instance where the one that arrived first and deserves higher priority"
                            + " (SLO class importance, then workload priority) was scheduled later.").lower()
                    .source(BLIS_G3 + ": PriorityInversions"),
            Metric.count("head_of_line_blocks", "steps", CLUSTER, s -> s.cluster().headOfLineBlocks(),
                    "Steps where the wait-queue head lacked KV blocks while the next request would have fit.").lower()
                    .source(BLIS_G3 + ": HOLBlockingEvents"),
            Metric.optional("fitness", "score", CLUSTER,
                    "Weighted fitness from the config's fitness_weights (sum of weight x normalised metric); null when"
                            + " none are set.").higher().source(BLIS_G3 + ": Fitness"),
            Metric.flag("autoscaling_enabled", AUTOSCALING, s -> s.autoscaling().enabled(),
                    "Whether an autoscaler ran (policies.autoscale); false for a fixed fleet."),
            Metric.count("scale_ups", "replicas", AUTOSCALING, s -> s.autoscaling().scaleUps(),
                    "Replicas added by the autoscaler; 0 for a fixed fleet.").source(BLIS_G3 + ": ScaleUpCount"),
            Metric.count("scale_downs", "replicas", AUTOSCALING, s -> s.autoscaling().scaleDowns(),
                    "Replicas removed by the autoscaler, drained or cancelled while starting.")
                    .source(BLIS_G3 + ": ScaleDownCount"),
            Metric.count("clamped_decisions", "decisions", AUTOSCALING, s -> s.autoscaling().clampedDecisions(),
                    "Scale checks whose desired replica count was clamped to [min, max] (or short of free slots)."),
            Metric.count("oscillations", "scale actions", AUTOSCALING, s -> s.autoscaling().oscillations(),
                    "Scale actions reversing the previous one (up then down, or down then up) within the oscillation"
                            + " window.").lower().source(BLIS_G3 + ": ScaleOscillations"),
            Metric.count("drain_rerouted", "requests", AUTOSCALING, s -> s.autoscaling().drainRerouted(),
                    "Requests moved to another replica by a redirect or immediate drain.").lower(),
            Metric.count("drain_recomputed", "requests", AUTOSCALING, s -> s.autoscaling().drainRecomputed(),
                    "Requests restarted from their prompt on another replica by an immediate drain.").lower(),
            Metric.number("replica_seconds", "replica-seconds", AUTOSCALING, s -> s.autoscaling().replicaSeconds(),
                    "Replica-seconds paid for, every lifecycle state (a fixed fleet: instances x run seconds); the"
                            + " fitness rule's reference is one replica-hour.").lower()
                    .fitness(Normalisation.inverse(3600, "replica-seconds"))
                    .source(BLIS_G3 + ": TotalReplicaSeconds"),
            replicaSeconds("provisioning", "spent provisioning (node and pod start)"),
            replicaSeconds("loading", "spent loading model weights"),
            replicaSeconds("warming", "spent warming up (CUDA graphs, compilation)"),
            replicaSeconds("ready", "ready (receiving requests)"),
            replicaSeconds("draining", "draining (finishing or handing off work after a scale-down)"),
            Metric.optional("cost_usd", "USD", AUTOSCALING, s -> s.autoscaling().costUsd(),
                    "replica_seconds / 3600 x USD per GPU-hour x TP (under P/D each pool's own GPUs and price); null when"
                            + " the GPU has no price (usd_per_gpu_hour in the GPU table; autoscaling.gpu_price_per_hour sets one). The fitness rule's reference is one"
                            + " US dollar.").lower()
                    .fitness(Normalisation.inverse(1, "USD")).source(BLIS_D6),
            Metric.optional("time_to_ready_mean_s", "s", AUTOSCALING, s -> s.autoscaling().timeToReadyMeanS(),
                    "Mean time from a scale-up decision to the replica being ready; null when none became ready.")
                    .lower(),
            Metric.optional("time_to_ready_max_s", "s", AUTOSCALING, s -> s.autoscaling().timeToReadyMaxS(),
                    "Longest time from a scale-up decision to the replica being ready; null when none became ready.")
                    .lower(),
            Metric.optional("slo_attainment_while_starting", "fraction", AUTOSCALING,
                    s -> s.autoscaling().sloAttainmentWhileStarting(),
                    "SLO attainment of requests completing while any replica was starting; null when none did.")
                    .higher(),
            Metric.integer("peak_replicas", "replicas", AUTOSCALING, s -> s.autoscaling().peakReplicas(),
                    "Most replicas held at once, in any lifecycle state."),
            Metric.number("mean_replicas", "replicas", AUTOSCALING, s -> s.autoscaling().meanReplicas(),
                    "Time-weighted mean replicas held (replica_seconds / run seconds)."),
            Metric.text("architecture", PD, s -> s.pd().architecture(),
                    "Deployment architecture: aggregated (one pool) or pd (prefill/decode disaggregation)."),
            Metric.text("pd_decider", PD, s -> s.pd().decider(),
                    "P/D: which requests prefill remotely (always, never, prefix-threshold); empty when aggregated.")
                    .jsonOnly(),
            Metric.count("pd_remote", "requests", PD, s -> s.pd().remote(),
                    "P/D: requests whose prefill ran on the prefill pool; 0 when aggregated."),
            Metric.count("pd_local", "requests", PD, s -> s.pd().local(),
                    "P/D: requests routed whole to the decode pool, prefill included: by the decider's choice, or because"
                            + " the decode pool refuses them (beyond its max_model_len or KV capacity: dropped there before"
                            + " any prefill); 0 when aggregated."),
            Metric.integer("prefill_replicas", "replicas", PD, s -> s.pd().prefill().replicas(),
                    "P/D: prefill pool replicas; 0 when aggregated."),
            Metric.integer("decode_replicas", "replicas", PD, s -> s.pd().decode().replicas(),
                    "P/D: decode pool replicas; 0 when aggregated."),
            Metric.optional("prefill_utilization", "fraction", PD, s -> s.pd().prefill().utilization(),
                    "P/D: prefill pool busy time / (replicas x run duration); null when aggregated.")
                    .source(DISTSERVE + ": per-phase utilization"),
            Metric.optional("decode_utilization", "fraction", PD, s -> s.pd().decode().utilization(),
                    "P/D: decode pool busy time / (replicas x run duration); null when aggregated.")
                    .source(DISTSERVE + ": per-phase utilization"),
            Metric.distribution("prefill_queueing_ms", PD, s -> s.pd().prefill().queueingMs(),
                    "time a prefill waited on its prefill instance, from the engine core taking it in to its first step (P/D)", "none ran", MEAN, P99).lower(),
            Metric.distribution("decode_queueing_ms", PD, s -> s.pd().decode().queueingMs(),
                    "time from a request's KV arriving (or its enqueue, when served whole) to its first step on its"
                            + " decode instance (P/D; completed requests)", COMPLETED, MEAN, P99).lower(),
            Metric.count("pd_transfers", "transfers", PD, s -> s.pd().transfers(),
                    "P/D: completed KV transfers prefill -> decode.")
                    .source(DISTSERVE + ": KV cache transfer from the prefill to the decode instance"),
            Metric.count("pd_transfer_bytes", "bytes", PD, s -> s.pd().transferBytes(),
                    "P/D: bytes of the completed KV transfers, every GPU stream (prompt tokens x KV bytes per token).")
                    .lower(),
            Metric.distribution("pd_transfer_ms", PD, s -> s.pd().transferMs(),
                    "KV transfer time, decode blocks reserved to KV arrived (P/D; latency + bytes at the shared"
                            + " bandwidth)",
                    NO_TRANSFER, MEAN, P99).lower(),
            Metric.distribution("pd_bandwidth_wait_ms", PD, s -> s.pd().bandwidthWaitMs(),
                    "time a KV transfer's bytes took beyond their time alone on the link (P/D; bandwidth shared with"
                            + " concurrent transfers)", NO_TRANSFER, MEAN, P99).lower(),
            Metric.count("pd_decode_block_waits", "transfers", PD, s -> s.pd().blockWaits(),
                    "P/D: transfers that waited in their decode instance's queue for free KV blocks.").lower(),
            Metric.distribution("pd_decode_block_wait_ms", PD, s -> s.pd().blockWaitMs(),
                    "time from a prefill's end to its KV transfer's start (P/D; 0 when the decode instance had room)",
                    "no transfer started", MEAN).lower(),
            Metric.count("steps", "steps", RUN, "Engine steps over all instances."),
            Metric.count("events_processed", "events", RUN, "Kernel events processed."),
            Metric.count("skipped_trace_lines", "lines", RUN, "Malformed trace lines skipped under skip_bad_lines.")));

    /** Every column of {@code cells/} and raw metric of {@code evaluate}, in order. */
    public static final List<Column> COLUMNS = ALL.stream().flatMap(m -> m.columns().stream()).toList();

    private static final Map<String, Metric> BY_NAME = index(ALL, Metric::name);
    private static final Map<String, Column> COLUMN_BY_NAME = index(COLUMNS, Column::name);

    private MetricCatalog() {
    }

    /** {@code count} per injected request (0 when none arrived). */
    private static double perInjected(long count, RunSummary s) {
        return (double) count / Math.max(1, s.count("injected"));
    }

    /** {@code count} / {@code of}, NaN when {@code of} is 0 (an undefined rate, null in outputs). */
    private static double perOrNaN(long count, long of) {
        return of == 0 ? Double.NaN : (double) count / of;
    }

    /** The metric named {@code name}. */
    public static Metric metric(String name) {
        Metric m = BY_NAME.get(name);
        if (m == null) {
            throw new IllegalArgumentException("no metric " + name);
        }
        return m;
    }

    /** The column named {@code name} (a scalar metric, or a distribution's statistic such as {@code ttft_p99_ms}). */
    public static Column column(String name) {
        Column c = COLUMN_BY_NAME.get(name);
        if (c == null) {
            throw new IllegalArgumentException("no column " + name);
        }
        return c;
    }

    private static Metric replicaSeconds(String state, String what) {
        return Metric.number("replica_seconds_" + state, "replica-seconds", AUTOSCALING,
                s -> s.autoscaling().replicaSeconds(state), "Replica-seconds " + what + ".");
    }

    /** {@code metrics}, once every name is known unique: among metrics, columns and each JSON object's keys. */
    private static List<Metric> checked(List<Metric> metrics) {
        Set<String> names = new HashSet<>();
        Map<Metric.Group, Set<String>> keys = new HashMap<>();
        for (Metric m : metrics) {
            if (!names.add(m.name())) {
                throw new IllegalStateException("metric " + m.name() + " is declared twice");
            }
            keys.computeIfAbsent(m.group(), g -> new HashSet<>()).add(m.name());
            for (Column c : m.columns()) {
                if (!c.name().equals(m.name()) && !names.add(c.name())) {
                    throw new IllegalStateException("column " + c.name() + " is declared twice");
                }
            }
        }
        for (Metric.Group g : Metric.Group.values()) {
            if (g != Metric.Group.RUN && !keys.computeIfAbsent(Metric.Group.RUN, k -> new HashSet<>()).add(g.key())) {
                throw new IllegalStateException("metric " + g.key() + " has the name of a JSON section");
            }
        }
        for (SummaryJson.Breakdown b : SummaryJson.BREAKDOWNS) {
            if (!keys.computeIfAbsent(b.group(), g -> new HashSet<>()).add(b.key())) {
                throw new IllegalStateException("breakdown " + b.key() + " has a metric's name in " + b.group());
            }
        }
        return Collections.unmodifiableList(new ArrayList<>(metrics));
    }

    private static <T> Map<String, T> index(List<T> items, java.util.function.Function<T, String> name) {
        Map<String, T> out = new HashMap<>();
        items.forEach(i -> out.put(name.apply(i), i));
        return Collections.unmodifiableMap(out);
    }
}
