package io.servesim.latency;

/**
 * A latency model that can price one rank of a data-parallel group whose MoE layers run expert-parallel
 * ({@link ExpertParallelStep}): the rank's own work (attention over its own requests, every other operator at the
 * group's padded token count) apart from the routed experts, and one MoE layer's routed experts on one rank.
 */
public interface ExpertParallelModel extends LatencyModel {
    /**
     * Microseconds one rank's step takes in a lockstep group: its own step {@code own} (empty for an idle rank's dummy
     * batch) with its dense operators run at {@code runTokens} (its own, or the group's padded count when vLLM pads
     * every data-parallel rank's batch to the largest), without routed experts, plus {@code sharedUs}, the MoE layers'
     * routed experts and collectives, which every rank waits for alike.
     */
    double rankStepUs(StepShape own, long runTokens, double sharedUs);

    /**
     * Microseconds of one MoE layer's routed experts on the busiest of {@code ep} ranks when the ranks run
     * {@code tokensPerRank} on average (ep x tokensPerRank tokens gathered): a rank of {@code load} times the mean
     * rank's token-expert pairs (1: a balanced gate).
     */
    double expertBlockUs(double tokensPerRank, int ep, double load);

    /**
     * Microseconds one GPU takes to stream {@code bytes} through its memory: element-wise work no table measured,
     * at the achievable bandwidth (the datasheet's times the cross-GPU memory efficiency).
     */
    double streamUs(double bytes);

    /** The served model (its MoE layers, hidden size, experts and dtype). */
    ModelArchitecture architecture();
}
