package io.servesim.latency;

import java.util.Locale;

/**
 * The step time of a data-parallel group whose MoE layers run expert-parallel, stepping in lockstep as vLLM runs it
 * ({@code data_parallel_size} ranks with {@code enable_expert_parallel}): attention and the dense operators are
 * data-parallel, each rank on its own batch; the routed experts are sharded over the ranks, and every MoE layer
 * dispatches every rank's tokens to the experts' ranks and combines the outputs back, so no rank passes a MoE layer
 * before every rank reached it. A rank without requests runs a dummy batch meanwhile (vLLM's
 * {@code DPEngineCoreProc}: {@code execute_dummy_batch} while the coordinator's wave is running,
 * {@code vllm/v1/engine/core.py}). Before every step the ranks agree on their token counts
 * ({@code vllm/v1/worker/dp_utils.py coordinate_batch_across_dp}): when every rank's step runs a CUDA graph (its tokens
 * at most the largest captured size, {@link CudaGraphSizes}), every rank's batch is padded to the largest of their
 * graphs' sizes; when any rank's step is too large for a graph, no rank is padded (vllm-project/vllm#34102, in vLLM
 * 0.16 and later: "only enable DP padding if this specific batch/step is using cudagraphs"). LLMServingSim @ 5daddb2
 * pads always ({@code serving/__main__.py _pad_batch_to_max}). Per step, with T the padded token count, or each rank
 * at its own tokens n_i (an idle rank's dummy batch one token) and T their mean when unpadded:
 * <pre>
 * step_us   = max over ranks of rank_us(own batch, T or n_i) + shared_us     (the slowest rank sets the step)
 * rank_us   = the rank's operators at T (or n_i) tokens, attention over its own requests ({@link ExpertParallelModel})
 * shared_us = MoE layers x (routed experts of ep x T gathered tokens on the busiest rank + off-rank pairs
 *             + all-gather + reduce-scatter)
 * off-rank pairs = (ep x T x k - the busiest rank's own pairs) x (5 x moe_intermediate + 2 x hidden) x dtype bytes
 *                  at the memory bandwidth
 * all-gather     of ep x T tokens x (hidden + experts) x dtype bytes  (hidden states and router logits)
 * reduce-scatter of ep x T tokens x hidden x dtype bytes
 * </pre>
 * The dispatch and combine are those of vLLM's default all-to-all backend, {@code allgather_reducescatter}, priced over
 * the GPUs' interconnect by {@link GatherScatter}; their per-token sizes are LLMServingSim's
 * ({@code serving/core/trace_generator.py _emit_moe_block}). Unpadded, the ranks' own counts differ, and vLLM runs
 * them as grouped NCCL broadcasts (the all-gather-v) and reduces (the reduce-scatter-v), one rooted at each rank
 * ({@code PyNcclCommunicator.all_gatherv} and {@code reduce_scatterv}, {@code vllm/distributed/device_communicators/
 * pynccl.py}). A ring broadcast from a root crosses every link but the one into the root, a reduce to a root every link
 * but the one out of it, so the busiest link carries all ranks' tokens but the fewest one rank has: priced as the
 * all-gather of equal chunks that moves as many over each link, n / (n - 1) x (total - fewest) gathered tokens. Two
 * ranks at 300 and 1 token move 300 tokens' bytes each way, as equal chunks of 300 do, not of 150.5. Every rank's fused
 * MoE runs over all gathered token-expert pairs, its own experts' and the others': vLLM's {@code TritonExperts.apply}
 * sorts them with {@code moe_align_block_size} without {@code ignore_invalid_experts}, so a pair routed to another
 * rank's expert keeps its rows with expert id -1, {@code fused_moe_kernel} writes zeros to its rows of each GEMM's
 * output ({@code write_zeros_to_output}), and {@code silu_and_mul} and {@code moe_sum} run over its rows too ({@code
 * vllm/model_executor/layers/fused_moe/fused_moe.py} at vllm-project/vllm@13cb3e44373beb1c8b9d2c017f565af6f7a1b601):
 * per such pair the gate/up output's 2 x moe_intermediate zeros, the activation's read of them and write of
 * moe_intermediate, the down output's hidden zeros and moe_sum's read of them, element-wise work no profile measured,
 * streamed at the GPU's memory bandwidth ({@link ExpertParallelModel#streamUs}). The dummy batch of an idle rank is one
 * token without attention, padded to T or not: it never costs more than a busy rank's step.
 *
 * <p>Expert load: with balancedness b (vLLM EPLB's measure, the mean tokens per EP rank over the busiest rank's:
 * {@code EplbState.step} with {@code log_balancedness}, {@code vllm/distributed/eplb/eplb_state.py} at
 * vllm-project/vllm@50feac95f9e53a97d6ed27fee6bfe3b163d18594) the busiest rank's experts take 1 / b times the mean
 * rank's token-expert pairs, and every rank waits for it at the combine. b = 1 is the balanced gate. The
 * {@code allgather_reducescatter} dispatch moves every rank's tokens to every rank whatever the routing, so its size
 * does not change.
 */
public final class ExpertParallelStep {
    private final ExpertParallelModel model;
    private final int ep;
    private final int moeLayers;
    private final GatherScatter collective;
    private final CudaGraphSizes graphs;
    private final double dispatchBytesPerToken;
    private final double combineBytesPerToken;
    private final int expertsPerToken;
    /** Bytes a rank's fused MoE moves for each token-expert pair routed to another rank's expert. */
    private final double offRankBytesPerPair;
    /** The busiest rank's token-expert pairs over the mean rank's: 1 / balancedness. */
    private final double load;

    /**
     * @param model the per-rank model
     * @param ep    expert-parallel ranks (data-parallel ranks x TP; at least 2)
     * @param link  the GPUs' interconnect
     * @param balancedness the mean expert load per rank over the busiest rank's, in (0, 1] (1: balanced)
     * @param graphs the sizes each rank captured CUDA graphs for
     */
    public ExpertParallelStep(ExpertParallelModel model, int ep, Interconnect link, double balancedness,
                              CudaGraphSizes graphs) {
        if (!(balancedness > 0 && balancedness <= 1)) {
            throw new IllegalArgumentException("balancedness must be in (0, 1], was " + balancedness);
        }
        ModelArchitecture arch = model.architecture();
        this.model = model;
        this.load = 1.0 / balancedness;
        this.ep = ep;
        this.moeLayers = arch.feedForward().moeLayers();
        this.collective = new GatherScatter(link, ep);
        this.graphs = graphs;
        this.dispatchBytesPerToken = (double) (arch.hiddenSize() + arch.feedForward().experts()) * arch.dtypeBytes();
        this.combineBytesPerToken = (double) arch.hiddenSize() * arch.dtypeBytes();
        this.expertsPerToken = arch.feedForward().expertsPerToken();
        this.offRankBytesPerPair = (double) (5 * arch.feedForward().expertIntermediateSize() + 2 * arch.hiddenSize())
                * arch.dtypeBytes();
    }

    /**
     * The group's step, {@code ranks[i]} rank i's batch or null for a rank without requests (its dummy batch); null
     * when no rank has requests (the group does not step).
     */
    public long stepTimeUs(StepShape[] ranks, StepShape empty) {
        boolean graphed = true;
        long padded = 1;
        long total = 0;
        long fewest = Long.MAX_VALUE;
        for (StepShape s : ranks) {
            long tokens = ownTokens(s);
            total += tokens;
            fewest = Math.min(fewest, tokens);
            long size = graphs.paddedTokens(tokens);
            graphed &= size != CudaGraphSizes.EAGER;
            padded = Math.max(padded, size);
        }
        int n = ranks.length;
        double perRank = graphed ? padded : (double) total / n;
        double busiestLinkTokens = graphed ? (double) (n - 1) * padded : total - fewest;
        double shared = moeLayers * (model.expertBlockUs(perRank, ep, load) + offRankUs(perRank)
                + collectivesUs(busiestLinkTokens * n / (n - 1)));
        double slowest = 0;
        for (StepShape s : ranks) {
            slowest = Math.max(slowest, model.rankStepUs(s == null ? empty : s, graphed ? padded : ownTokens(s), shared));
        }
        return Math.max(1L, Math.round(slowest));
    }

    /** The tokens a rank runs unpadded: its batch's, or the dummy batch's one. */
    private static long ownTokens(StepShape s) {
        return s == null ? 1 : Math.max(1, s.totalTokens());
    }

    /**
     * One MoE layer's work on the busiest rank for the gathered token-expert pairs routed to the other ranks' experts,
     * when the ranks run {@code tokensPerRank} on average: its own pairs are {@code load} times the mean rank's, the
     * rest of the ep x tokensPerRank x k gathered pairs are the other ranks'.
     */
    double offRankUs(double tokensPerRank) {
        double gatheredPairs = ep * tokensPerRank * expertsPerToken;
        double own = Math.min(gatheredPairs, tokensPerRank * expertsPerToken * load);
        return model.streamUs((gatheredPairs - own) * offRankBytesPerPair);
    }

    /**
     * One MoE layer's dispatch (all-gather) and combine (reduce-scatter) of {@code gatheredTokens} over the ranks, as
     * an all-gather of equal chunks moves them: (n - 1) / n of them over every rank's link.
     */
    double collectivesUs(double gatheredTokens) {
        return collective.allGatherUs(gatheredTokens * dispatchBytesPerToken)
                + collective.reduceScatterUs(gatheredTokens * combineBytesPerToken);
    }

    /** Expert-parallel ranks. */
    public int ranks() {
        return ep;
    }

    /** One line for summaries. */
    public String describe() {
        return String.format(Locale.ROOT, "expert parallel over %d ranks in lockstep (%s per rank; all-gather/reduce-scatter"
                + " dispatch by %s; ranks padded to one CUDA graph's size when every rank's step has one, up to %d tokens;"
                + " %s)", ep, model.describe(), collective.describe(), graphs.largest(), load == 1.0 ? "balanced expert load"
                : String.format(Locale.ROOT, "expert load balancedness %.2f: the busiest rank's experts take %.2f x the"
                + " mean", 1.0 / load, load));
    }
}
