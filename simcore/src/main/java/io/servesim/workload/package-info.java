/**
 * Workload spec v2: who sends requests, when, and what they look like; or which trace to replay.
 * After BLIS (inference-sim/inference-sim {@code sim/workload/}: {@code spec.go}, {@code arrival.go},
 * {@code distribution.go}, {@code session.go}) and NVIDIA Dynamo's mocker trace replay.
 *
 * <pre>
 * workload:                       # a mapping, a path to a file holding one, or {scenario: name, ...overrides}
 *   version: "2"                  # optional
 *   scenario: chat                # optional: chat | code | bursty-traffic | diurnal-cycle | unfair-tenants | prefix-heavy | mixed-slo
 *   seed: 42                      # optional: the workload's own seed (else the run's)
 *   aggregate_rate: 10.0          # arrivals per second across clients (a session counts once)
 *   num_requests: 10000           # all requests, follow-up turns included; and/or
 *   horizon_us: 600000000         # no arrival after this time
 *   clients:                      # or one client's keys directly here (client id "default")
 *     - id: chat                  # required in a list; unique; names the client's random streams
 *       tenant_id: team-a         # default "default"
 *       slo_class: interactive    # default "standard"
 *       rate_fraction: 0.7        # default 1; normalised (with a warning) when the sum is not 1
 *       arrival: {process: poisson}   # poisson | constant | gamma {cv} | weibull {cv} | bursty {...} | diurnal {...}
 *       input_distribution:  {type: lognormal, params: {mean: 800, sigma: 0.9, min: 16, max: 8000}}
 *       output_distribution: {type: exponential, params: {mean: 220}}
 *       prefix: {group: system-a, length: 512}              # prepended; equal groups share KV blocks
 *       priority_distribution: {type: constant, params: {value: 1}}   # default 0
 *       streaming_probability: 0.9                          # default 1
 *       max_output_tokens: 0                                # budget carried by requests and capping outputs; 0 = none
 *       conversation: {probability: 0.6, turns: {...}, think_time_us: {...}, context_growth: accumulate}
 *       lifecycle: {start_us: 0, stop_us: 600000000}
 *       network: {bytes_per_token: 4, bandwidth_mbps: 100, rtt_us: 20000}
 *       agentic: {workflow: react}    # instead of input/output_distribution, conversation and network:
 *                                     # workflow sessions (see io.servesim.workload.agentic)
 *   trace:                        # instead of the above: replay
 *     {format: csv | azure | mooncake | vllm, path: f, mode: trace | concurrency,
 *      arrival_speedup_ratio: 1.0, max_in_flight: 64, skip_bad_lines: false, max_requests: 0}
 * </pre>
 *
 * Binding: {@link io.servesim.workload.WorkloadBinder}, {@link io.servesim.workload.GeneratorBinder},
 * {@link io.servesim.workload.ClientBinder}, {@link io.servesim.workload.arrival.ArrivalBinder},
 * {@link io.servesim.workload.dist.DistributionBinder}, {@link io.servesim.workload.TraceBinder}.
 * Generation: {@link io.servesim.workload.GeneratorSource} (lazy, O(clients + active sessions) state);
 * replay: {@link io.servesim.workload.trace.TraceReplaySource} and
 * {@link io.servesim.workload.trace.ConcurrencyReplaySource}. A request's {@code RequestTags} carry
 * client, tenant, SLO class, session id (-1 for none) and turn index; a conversational follow-up
 * turn is one with turn index > 0; an agentic step also carries its step id, loop iteration and
 * fan-out index.
 */
package io.servesim.workload;
