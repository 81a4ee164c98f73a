package io.servesim.latency;

import java.util.Locale;

/**
 * The step time of a data-parallel group whose MoE layers run expert-parallel, stepping in lockstep as vLLM runs it
 * ({@code data_parallel_size} ranks with {@code enable_expert_parallel}): attention and the dense operators are
 * data-parallel, each rank on its own batch; the routed experts are sharded over the ranks, and every MoE layer
 * dispatches every rank's tokens to the experts' ranks and combines the outputs back, so no rank passes a MoE layer
 * before every rank reached it. A rank without requests runs a dummy batch meanwhile (vLLM's
 * {@code DPEngineCoreProc}: {@code execute_dummy_batch} while the coordinator's wave is running,
 * {@code vllm/v1/engine/core.py}), and vLLM pads every rank's batch to the group's largest token count
 * ({@code vllm/v1/worker/dp_utils.py coordinate_batch_across_dp}; LLMServingSim @ 5daddb2
 * {@code serving/__main__.py _pad_batch_to_max} does the same). Per step, with T the padded token count:
 * <pre>
 * step_us   = max over ranks of rank_us(own batch, T) + shared_us     (the slowest rank sets the step)
 * rank_us   = the rank's operators at T tokens, attention over its own requests ({@link ExpertParallelModel})
 * shared_us = MoE layers x (routed experts at T on one rank + all-gather + reduce-scatter)
 * all-gather     of ep x T tokens x (hidden + experts) x dtype bytes  (hidden states and router logits)
 * reduce-scatter of ep x T tokens x hidden x dtype bytes
 * </pre>
 * The dispatch and combine are those of vLLM's default all-to-all backend, {@code allgather_reducescatter}, priced over
 * the GPUs' interconnect by {@link GatherScatter}; their per-token sizes are LLMServingSim's
 * ({@code serving/core/trace_generator.py _emit_moe_block}). The dummy batch of an idle rank is one token padded to T
 * without attention: with its dense operators at T it costs the busy ranks' dense work, so an idle rank never sets the
 * step unless every rank's attention is cheaper than nothing.
 */
public final class ExpertParallelStep {
    private final ExpertParallelModel model;
    private final int ep;
    private final int moeLayers;
    private final GatherScatter collective;
    private final double dispatchBytesPerToken;
    private final double combineBytesPerToken;

    /**
     * @param model the per-rank model
     * @param ep    expert-parallel ranks (data-parallel ranks x TP; at least 2)
     * @param link  the GPUs' interconnect
     */
    public ExpertParallelStep(ExpertParallelModel model, int ep, Interconnect link) {
        ModelArchitecture arch = model.architecture();
        this.model = model;
        this.ep = ep;
        this.moeLayers = arch.feedForward().moeLayers();
        this.collective = new GatherScatter(link, ep);
        this.dispatchBytesPerToken = (double) (arch.hiddenSize() + arch.feedForward().experts()) * arch.dtypeBytes();
        this.combineBytesPerToken = (double) arch.hiddenSize() * arch.dtypeBytes();
    }

    /**
     * The group's step, {@code ranks[i]} rank i's batch or null for a rank without requests (its dummy batch); null
     * when no rank has requests (the group does not step).
     */
    public long stepTimeUs(StepShape[] ranks, StepShape empty) {
        long padded = 1;
        for (StepShape s : ranks) {
            if (s != null) {
                padded = Math.max(padded, s.totalTokens());
            }
        }
        double shared = moeLayers * (model.expertBlockUs(padded, ep) + collectivesUs(padded));
        double slowest = 0;
        for (StepShape s : ranks) {
            slowest = Math.max(slowest, model.rankStepUs(s == null ? empty : s, padded, shared));
        }
        return Math.max(1L, Math.round(slowest));
    }

    /** One MoE layer's dispatch (all-gather) and combine (reduce-scatter) when every rank runs {@code paddedTokens}. */
    double collectivesUs(long paddedTokens) {
        double gathered = (double) ep * paddedTokens;
        return collective.timeUs(gathered * dispatchBytesPerToken) + collective.timeUs(gathered * combineBytesPerToken);
    }

    /** Expert-parallel ranks. */
    public int ranks() {
        return ep;
    }

    /** One line for summaries. */
    public String describe() {
        return String.format(Locale.ROOT, "expert parallel over %d ranks in lockstep (%s per rank; all-gather/reduce-scatter"
                + " dispatch over NCCL)", ep, model.describe());
    }
}
