/**
 * The discrete-event kernel: the future event list ({@link io.servesim.kernel.EventQueue}, a total
 * order by time, kind priority and sequence) and the event kinds with their tie-break priorities
 * ({@link io.servesim.kernel.EventKind}). It knows nothing of engines or clusters. The loop that
 * pops events and dispatches them to the control plane and the engines is
 * {@code io.servesim.run.Simulation}.
 */
package io.servesim.kernel;
