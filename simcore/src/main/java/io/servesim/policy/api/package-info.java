/**
 * The public policy interface: what a policy written as Java source ({@code policies.<kind>: {name: code, params:
 * {source: FILE.java}}}) implements and sees. One interface per kind of policy ({@link RoutingPolicy},
 * {@link AdmissionPolicy}, {@link PriorityPolicy}, {@link SchedulingPolicy}, {@link AutoscalePolicy}), the views it
 * reads ({@link RequestView}, {@link Instances}, {@link ScaleView}) and the one value it returns beyond numbers
 * ({@link Admission}). The same contract the built-in templates follow (BLIS macro plan, F.5 "extensibility" and
 * F.6 "policy instance lifecycle": inference-sim/inference-sim @ 7d4e8bac,
 * {@code docs/plans/2026-02-11-macro-implementation-plan-v2.md}): one instance per run, state only in its fields,
 * changed only from its inputs and the simulated clock.
 *
 * <p>This package depends on {@code java.lang} and {@code java.util} alone (ArchitectureTest checks it): a policy
 * source is compiled against these classes and nothing else of servesim.
 */
package io.servesim.policy.api;
