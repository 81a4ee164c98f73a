/**
 * Capacity planning ({@code servesim plan PLAN.yaml}, {@code servesim capacity CONFIG --slo ...}): which deployment of
 * which GPUs, at which TP, with which engine settings, serves a target rate within every SLO at the least cost per hour,
 * and how much traffic each of the best deployments sustains.
 *
 * <p>A search is rounds of sweeps: each round is a set of cells ({@link Probe}s: a candidate deployment at a rate, on a
 * trace of a number of requests) run by the sweep's own machinery ({@link PlanRounds}: the same
 * {@code SweepPipeline}, checkpoints, output rules and runners), so a plan resumes and scales out on Flink like a sweep.
 * The search logic is plain Java over the previous rounds' rows ({@link PlanSearch}): the space is expanded into
 * {@link Candidate}s, a family of replica counts is bisected on a short trace where more replicas never lower what a
 * deployment sustains ({@link FamilyScreen}; not for P/D pool ratios), successive halving keeps the cheapest promising
 * candidates while the trace grows ({@link SuccessiveHalving}), the cheapest one meeting every SLO on the full trace is
 * checked against every cheaper one ({@link CheapestCheck}), and the sustainable rate of the finalists is bisected on a
 * grid of the stated tolerance ({@link CapacitySearch}), giving the cost/capacity {@link Frontier}.
 */
package io.servesim.plan;
