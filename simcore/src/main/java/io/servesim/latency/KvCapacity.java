package io.servesim.latency;

import io.servesim.config.ConfigException;
import java.util.Locale;

/**
 * KV-cache size of one instance when it is not given, the way vLLM sizes it at start-up
 * ({@code vllm/v1/worker/gpu_worker.py determine_available_memory}): every GPU of the TP group may use
 * {@code memory x gpu_memory_utilization}; what is left after its weight shard, the activation peak
 * of a profiling forward pass and non-torch memory holds KV blocks, and the group has as many blocks
 * as one GPU holds (each block spans all ranks' KV-head shards):
 * <pre>
 * blocks = floor((memory x util - weights/tp - activation peak - non-torch) / (blockSize x kvBytesPerTokenPerGpu))
 * </pre>
 * KV heads shard across the TP ranks; when there are fewer KV heads than ranks (or for an MLA
 * latent) every rank holds a full replica, so adding GPUs stops adding capacity per token
 * ({@link ModelArchitecture#kvBytesPerTokenPerGpu}).
 *
 * <p>Estimates (calibrated on llm-d/llm-d-benchmark {@code config_explorer/empirical-vllm-memory-results.md},
 * vLLM 0.11 logs on H100 with 79.18 GiB: Llama-3.1-8B weights 14.99 GiB, activation 4.76 GiB,
 * non-torch 0.13 GiB, KV 51.38 GiB):
 * <ul>
 *   <li>activation peak = max(forward, sampler). The sampler's dummy run over {@code max_num_seqs}
 *       rows of fp32 logits dominates: the measured peaks equal {@value #SAMPLER_LOGIT_COPIES} x
 *       max_num_seqs x vocab x 4 bytes (Llama-3.1-8B 9.73, Qwen3-0.6B 9.59, Qwen3-32B 9.73,
 *       gpt-oss-20b 9.62 with vLLM's default max_num_seqs 1024). Forward: max_num_batched_tokens x
 *       (4 x hidden + 3 x widest MLP / tp) x dtype (residual, norm, attention and MLP outputs plus the
 *       gate/up projection and its activation).</li>
 *   <li>non-torch memory (CUDA context extras, cuBLAS workspaces, NCCL buffers):
 *       {@value #NON_TORCH_GIB_SINGLE_GPU} GiB per GPU at TP 1, {@value #NON_TORCH_GIB_TENSOR_PARALLEL}
 *       GiB per GPU at TP &gt; 1 (the same logs).</li>
 *   <li>CUDA-graph memory is captured after the KV cache is sized (vLLM 0.11) and is not subtracted.</li>
 * </ul>
 *
 * @param blockSizeTokens          tokens per block
 * @param requestedBytesPerGpu     memory x gpu_memory_utilization
 * @param weightBytesPerGpu        weight shard
 * @param activationPeakBytes      activation peak of the profiling run
 * @param nonTorchBytes            non-torch memory
 * @param kvBytesPerBlockPerGpu    bytes of one block on one GPU
 * @param totalBlocks              KV blocks of the instance
 */
public record KvCapacity(int blockSizeTokens, double requestedBytesPerGpu, double weightBytesPerGpu,
                         double activationPeakBytes, double nonTorchBytes, long kvBytesPerBlockPerGpu,
                         int totalBlocks) {
    /** Bytes per GiB. */
    public static final double GIB = 1024.0 * 1024.0 * 1024.0;
    /** fp32 logit-sized buffers alive at the sampler's peak, fitted to vLLM 0.11 profiling logs. */
    public static final double SAMPLER_LOGIT_COPIES = 9.7;
    /** Non-torch memory of a single-GPU instance, GiB. */
    public static final double NON_TORCH_GIB_SINGLE_GPU = 0.13;
    /** Non-torch memory per GPU of a tensor-parallel instance, GiB. */
    public static final double NON_TORCH_GIB_TENSOR_PARALLEL = 0.55;

    /**
     * Estimates the KV blocks of an instance of {@code model} on {@code tp} x {@code gpu}.
     *
     * @param gpuMemoryUtilization fraction of each GPU's memory vLLM may use, in (0, 1]
     * @param maxNumBatchedTokens  token budget of a step (size of the profiling forward pass)
     * @param maxNumSeqs           most sequences in a step (rows of the profiling sampler run)
     * @param path                 config path of the deployment, for the error
     * @throws ConfigException when the weights and reserves leave no room for a single block
     */
    public static KvCapacity estimate(ModelArchitecture model, GpuSpec gpu, int tp, int blockSizeTokens,
                                      double gpuMemoryUtilization, int maxNumBatchedTokens, int maxNumSeqs,
                                      String path) {
        return estimate(model, gpu, tp, 1, blockSizeTokens, gpuMemoryUtilization, maxNumBatchedTokens, maxNumSeqs, path);
    }

    /**
     * As {@link #estimate(ModelArchitecture, GpuSpec, int, int, double, int, int, String)} for one rank of an
     * expert-parallel deployment whose routed experts are sharded over {@code expertRanks} GPUs (vLLM's
     * {@code enable_expert_parallel}: E / ep experts per GPU, the other weights per TP shard), with the non-torch memory
     * of a multi-GPU instance (NCCL buffers) when {@code expertRanks} &gt; 1.
     */
    public static KvCapacity estimate(ModelArchitecture model, GpuSpec gpu, int tp, int expertRanks, int blockSizeTokens,
                                      double gpuMemoryUtilization, int maxNumBatchedTokens, int maxNumSeqs,
                                      String path) {
        if (tp < 1 || expertRanks < 1 || blockSizeTokens < 1 || maxNumBatchedTokens < 1 || maxNumSeqs < 1
                || !(gpuMemoryUtilization > 0 && gpuMemoryUtilization <= 1)) {
            throw new IllegalArgumentException("tp, block size, token and sequence budgets must be >= 1 and utilization in (0, 1]");
        }
        double requested = gpu.memoryBytes() * gpuMemoryUtilization;
        double routed = model.routedExpertParams() * model.weightBytesPerParam();
        double weights = expertRanks == 1 ? model.weightBytes() / tp : (model.weightBytes() - routed) / tp + routed / expertRanks;
        double activation = Math.max(forwardPeakBytes(model, tp, maxNumBatchedTokens), samplerPeakBytes(model, maxNumSeqs));
        double nonTorch = (tp == 1 && expertRanks == 1 ? NON_TORCH_GIB_SINGLE_GPU : NON_TORCH_GIB_TENSOR_PARALLEL) * GIB;
        long perBlock = (long) blockSizeTokens * model.kvBytesPerTokenPerGpu(tp);
        double free = requested - weights - activation - nonTorch;
        long blocks = free <= 0 ? 0 : (long) Math.floor(free / perBlock);
        if (blocks < 1) {
            throw new ConfigException(path, String.format(Locale.ROOT,
                    "%s does not fit on %d x %s: %.2f GiB usable per GPU (%.1f GiB x %.2f) but weights %.2f + activations %.2f"
                            + " + non-torch %.2f GiB leave no room for one KV block; raise tp or gpu_memory_utilization",
                    model.name(), tp, gpu.name(), requested / GIB, gpu.memoryGiB(), gpuMemoryUtilization,
                    weights / GIB, activation / GIB, nonTorch / GIB));
        }
        return new KvCapacity(blockSizeTokens, requested, weights, activation, nonTorch, perBlock,
                (int) Math.min(Integer.MAX_VALUE, blocks));
    }

    /** Bytes per GPU left for the KV cache. */
    public double availableKvBytesPerGpu() {
        return requestedBytesPerGpu - weightBytesPerGpu - activationPeakBytes - nonTorchBytes;
    }

    /** Tokens the cache holds. */
    public long totalTokens() {
        return (long) totalBlocks * blockSizeTokens;
    }

    static double forwardPeakBytes(ModelArchitecture model, int tp, int maxNumBatchedTokens) {
        ModelArchitecture.FeedForward f = model.feedForward();
        long moeWidth = (long) f.expertsPerToken() * f.expertIntermediateSize() + f.sharedIntermediateSize();
        long widest = Math.max(f.denseIntermediateSize(), moeWidth);
        return (double) maxNumBatchedTokens * (4.0 * model.hiddenSize() + 3.0 * widest / tp) * model.dtypeBytes();
    }

    static double samplerPeakBytes(ModelArchitecture model, int maxNumSeqs) {
        return SAMPLER_LOGIT_COPIES * maxNumSeqs * model.vocabSize() * 4.0;
    }
}
