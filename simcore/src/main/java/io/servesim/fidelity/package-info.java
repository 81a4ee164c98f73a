/**
 * Fidelity against real engines: replay a real vLLM run through the simulator and compare, and fit
 * blackbox coefficients to a run.
 *
 * <h2>Run directories</h2>
 * The format of casys-kaist/LLMServingSim {@code bench/} results ({@link io.servesim.fidelity.RealRun}):
 * {@code meta.json} (engine settings, {@link io.servesim.fidelity.EngineSettings}),
 * {@code requests.jsonl} (vLLM's per-request timestamps, {@link io.servesim.fidelity.MeasuredRequest})
 * and the replayed workload {@code workload*.jsonl} (vLLM benchmark JSONL, read by the {@code vllm}
 * trace reader with its token ids).
 *
 * <h2>Replay</h2>
 * {@code servesim replay-real RUN_DIR [--latency-model profiled|roofline|blackbox] [--hardware GPU]}
 * simulates exactly the run's requests, at their recorded arrival times, on one engine (or, for
 * {@code data_parallel_size} ranks, one per rank behind vLLM's DP load balancer, stepping in lockstep with
 * {@code enable_expert_parallel}: {@link io.servesim.engine.Lockstep}) with the run's {@code max_num_seqs}, {@code max_num_batched_tokens}, block size, prefix caching and KV capacity
 * ({@link io.servesim.fidelity.ReplaySetup}: {@code num_gpu_blocks} when recorded, else derived from GPU
 * memory as vLLM does), prints TTFT, TPOT, E2E and queueing statistics side by side
 * ({@link io.servesim.fidelity.ComparisonReport}) and writes per-request rows to Parquet
 * ({@code schemas/replay.avsc}).
 *
 * <h2>Calibration</h2>
 * {@code servesim calibrate RUN_DIR --out coeffs.yaml} searches the blackbox step-time coefficients whose
 * replay best reproduces every request's measured latencies ({@link io.servesim.fidelity.Calibrator}) and
 * writes them in BLIS's coefficient format ({@link io.servesim.fidelity.CoefficientsFile}), which
 * {@code replay-real --latency-model blackbox --coefficients coeffs.yaml} reads.
 *
 * <h2>Roofline constants</h2>
 * {@code servesim validate-latency} fits the roofline's cross-GPU constants ({@link io.servesim.fidelity.RooflineFit})
 * on the shared measurements ({@link io.servesim.fidelity.LatencyDatasets}) leave-one-GPU-out and replays the
 * real run with its GPU held out ({@link io.servesim.fidelity.LatencyValidation}); {@code --write-constants}
 * writes the all-GPU fit that servesim bundles. Then it simulates the sim-to-real study's trainval experiments
 * from their shipped run configs and inference-perf workloads ({@link io.servesim.fidelity.Sim2RealStudy}) and
 * prints their means' errors beside the real runs' and the peers' ({@link io.servesim.fidelity.StudyMeans},
 * {@link io.servesim.fidelity.Sim2RealTable}).
 *
 * <h2>Results on the shipped run</h2>
 * The real vLLM 0.19 run of Llama-3.1-8B on one RTX PRO 6000 (300 ShareGPT requests at about 10 req/s;
 * sweeps/data/validation/vllm_rtxpro6000_llama31_8b, from casys-kaist/LLMServingSim @ 5daddb2,
 * MIT), {@code --hardware RTXPRO6000} (its meta.json names no GPU), mean errors sim vs real:
 * <pre>
 *                                        TTFT     TPOT     E2E
 * profiled (LLMServingSim tables)        -2.9%    -0.5%    -1.2%
 * blackbox, calibrated on the run        +3.6%    +0.6%    +1.4%   (fit: RMS log error 0.087)
 * roofline, bundled constants            +1.5%    +1.5%    +1.5%
 * roofline, RTX PRO 6000 held out       +13.3%    +6.8%    +8.5%
 * LLMServingSim (its own report)         -4.0%    -1.0%    -1.8%
 * </pre>
 * {@code RealRunReplayTest} checks the first three rows stay within 5%, {@code LatencyValidationTest} the
 * held-out row. The roofline does not model vLLM's attention kernel running a step that mixes a prefill
 * chunk with decodes at up to 1.8x the cost of its two parts apart (2048 prefill tokens with 128 decodes
 * over 1024 tokens: 1031 us per layer against 173 + 405 in the profile). Because the run is overloaded
 * (128 running and a growing queue), a throughput error becomes a larger TTFT error through queueing.
 */
package io.servesim.fidelity;
