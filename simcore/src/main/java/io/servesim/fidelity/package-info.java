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
 * simulates exactly the run's requests, at their recorded arrival times, on one engine with the run's
 * {@code max_num_seqs}, {@code max_num_batched_tokens}, block size, prefix caching and KV capacity
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
 * <h2>Results on the shipped run</h2>
 * The real vLLM 0.19 run of Llama-3.1-8B on one RTX PRO 6000 (300 ShareGPT requests at about 10 req/s;
 * /work/shared/data/validation/vllm_rtxpro6000_llama31_8b, from casys-kaist/LLMServingSim @ 5daddb2,
 * MIT), {@code --hardware RTXPRO6000} (its meta.json names no GPU), mean errors sim vs real:
 * <pre>
 *                                  TTFT     TPOT     E2E
 * profiled (LLMServingSim tables)  -2.9%    -0.5%    -1.2%
 * blackbox, calibrated on the run  +3.6%    +0.6%    +1.4%   (fit: RMS log error 0.087)
 * roofline                        -12.3%    -3.2%    -5.5%   (-58.6% / -24.9% / -33.4% at peak bandwidth)
 * LLMServingSim (its own report)   -4.0%    -1.0%    -1.8%
 * </pre>
 * {@code RealRunReplayTest} checks the first two rows stay within 5% and the roofline within 15%. The
 * roofline reaches that through one general constant, BLIS's bandwidth efficiency of 0.72
 * ({@link io.servesim.latency.RooflineModel#BANDWIDTH_EFFICIENCY}); at the datasheet's peak bandwidth it
 * missed by 59% / 25% / 33%, for reasons the measured profile shows. The GPU sustains 78-89% of its
 * 1597 GB/s in decode (the profile's projection and MLP GEMMs move their weights at 89% of peak for 1
 * token and 78% for 128; decode attention over 128 x 1024 tokens reads its KV at 83%), and steps that
 * mix a prefill chunk with decodes cost more: vLLM's attention kernel runs such a step at up to 1.8x the
 * cost of its two parts apart (2048 prefill tokens with 128 decodes over 1024 tokens: 1031 us per layer
 * against 173 + 405), which the roofline does not model. Because the run is overloaded (128 running and
 * a growing queue), a throughput error becomes a larger TTFT error through queueing, which is why TTFT
 * is the roofline's worst figure.
 */
package io.servesim.fidelity;
