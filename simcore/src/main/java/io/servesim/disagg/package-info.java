/**
 * Prefill/decode disaggregation ({@code deployment.architecture: pd}): a prefill pool and a decode
 * pool, a per-request P/D decider, KV transfers over links whose bandwidth concurrent transfers share,
 * and single ownership of a request's KV blocks. After DistServe (Zhong et al., OSDI'24), Splitwise
 * (Patel et al., ISCA'24), NVIDIA Dynamo's disaggregated serving ({@code docs/design_docs/disagg_serving.md},
 * the mocker's {@code lib/mocker/src/replay/offline/disagg.rs}) and the BLIS macro plan (D.4, PR 15
 * and PR 16: inference-sim/inference-sim @ 7d4e8bac,
 * {@code docs/plans/2026-02-11-macro-implementation-plan-v2.md}).
 * Used by {@code io.servesim.run}; uses the cluster (views, routers, the control plane's dispatch hook),
 * the engines (their handoff hooks) and the kernel's event queue.
 */
package io.servesim.disagg;
