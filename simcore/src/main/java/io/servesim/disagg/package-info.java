/**
 * Prefill/decode disaggregation ({@code deployment.architecture: pd}): a prefill pool and a decode
 * pool, a per-request P/D decider, KV transfers over links whose bandwidth concurrent transfers share,
 * and single ownership of a request's KV blocks. After DistServe (Zhong et al., OSDI'24), Splitwise
 * (Patel et al., ISCA'24), NVIDIA Dynamo's disaggregated serving ({@code docs/design_docs/disagg_serving.md},
 * the mocker's {@code lib/mocker/src/replay/offline/disagg.rs}) and the reference plan's D.4 and PR 15-16.
 * Used by {@code io.servesim.run}; uses the cluster (views, routers, the control plane's dispatch hook),
 * the engines (their handoff hooks) and the kernel's event queue.
 */
package io.servesim.disagg;
