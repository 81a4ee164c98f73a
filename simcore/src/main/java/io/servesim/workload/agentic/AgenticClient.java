package io.servesim.workload.agentic;

import io.servesim.engine.TokenSequence;
import io.servesim.workload.dist.DistributionSpec;

/**
 * What every LLM call of one agentic client shares: the workflow, the client's identity, its shared
 * system prompt (if any), output budget, priority distribution and streaming probability.
 */
public final class AgenticClient {
    final AgenticSpec spec;
    final WorkflowGraph graph;
    final String clientId;
    final String tenantId;
    final String sloClass;
    private final long prefixContentId;
    private final int prefixTokens;
    final int maxOutputTokens;
    final DistributionSpec priority;
    final double streamingProbability;

    /**
     * @param prefixContentId content id of the client's shared prefix (ignored when prefixTokens is 0)
     * @param prefixTokens    shared prefix tokens prepended to fresh prompts; 0 for none
     */
    public AgenticClient(AgenticSpec spec, String clientId, String tenantId, String sloClass, long prefixContentId,
                         int prefixTokens, int maxOutputTokens, DistributionSpec priority, double streamingProbability) {
        this.spec = spec;
        this.graph = spec.graph();
        this.clientId = clientId;
        this.tenantId = tenantId;
        this.sloClass = sloClass;
        this.prefixContentId = prefixContentId;
        this.prefixTokens = prefixTokens;
        this.maxOutputTokens = maxOutputTokens;
        this.priority = priority;
        this.streamingProbability = streamingProbability;
    }

    /** A fresh prompt: the shared prefix (if any) then {@code tokens} of new content. */
    TokenSequence prompt(long contentId, int tokens) {
        return prefixTokens == 0 ? TokenSequence.unique(contentId, tokens)
                : TokenSequence.prefixed(prefixContentId, prefixTokens, contentId, tokens);
    }

    /**
     * {@code context} followed by {@code tokens} of new content: the same (content, offset) pieces
     * the engine hashed for the earlier step's blocks, so they are prefix-cache hits.
     */
    static TokenSequence append(TokenSequence context, long contentId, int tokens) {
        int n = context.segmentCount();
        long[] ids = new long[n + 1];
        int[] lengths = new int[n + 1];
        for (int i = 0; i < n; i++) {
            ids[i] = context.segmentId(i);
            lengths[i] = context.segmentLength(i);
        }
        ids[n] = contentId;
        lengths[n] = tokens;
        return TokenSequence.ofSegments(ids, lengths);
    }
}
