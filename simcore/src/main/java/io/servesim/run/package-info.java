/**
 * One simulation run, the top of the kernel's layers: {@link io.servesim.run.RunPlan} binds a
 * validated config to its latency model, policies and workload; {@link io.servesim.run.Simulation}
 * is the run loop (pop the next event from the kernel's queue, dispatch it to the control plane or
 * an engine, until no event remains or the horizon); {@link io.servesim.run.PolicyBundle} names the
 * run's control policies. Everything below ({@code kernel}, {@code engine}, {@code cluster},
 * {@code policy}, {@code metrics}, {@code workload}) is reached from here, never the reverse.
 */
package io.servesim.run;
