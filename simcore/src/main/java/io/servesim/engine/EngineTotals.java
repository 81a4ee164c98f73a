package io.servesim.engine;

/**
 * Every per-engine cumulative counter the run's summary reports, summed over engines: the KV
 * tiers' ({@link KvTierTotals}: first admissions' prefix hits and lookups, CPU-tier traffic), the
 * prefix hits and lookups of readmitted preempted requests (vLLM v1's {@code PrefixCacheStats}
 * counts them apart), preemptions, failed KV allocations, head-of-line blocks, speculative decoding's verify steps,
 * draft and accepted tokens and the multimodal encoder's items, tokens and cache hits. Under
 * autoscaling a retired replica's engine is gone by the end of the run, so {@code cluster.ScaleCounters}
 * adds it here as it retires and the run adds the live engines at the end: one sum, no counter left out.
 */
public final class EngineTotals {
    private final KvTierTotals tiers = new KvTierTotals();
    private long preemptedHitTokens;
    private long preemptedQueriedTokens;
    private long preemptions;
    private long allocationFailures;
    private long headOfLineBlocks;
    private long specVerifySteps;
    private long specDraftTokens;
    private long specAcceptedTokens;
    private long encoderItems;
    private long encoderTokens;
    private long encoderCacheHits;

    /** Adds {@code e}'s counters. */
    public void add(Engine e) {
        KvCache kv = e.kvCache();
        tiers.add(kv);
        preemptedHitTokens += kv.preemptedHitTokens();
        preemptedQueriedTokens += kv.preemptedQueriedTokens();
        preemptions += e.preemptions();
        allocationFailures += kv.allocationFailures();
        headOfLineBlocks += e.headOfLineBlocks();
        specVerifySteps += e.specVerifySteps();
        specDraftTokens += e.specDraftTokens();
        specAcceptedTokens += e.specAcceptedTokens();
        encoderItems += e.encoderItems();
        encoderTokens += e.encoderTokens();
        encoderCacheHits += e.encoderCacheHits();
    }

    /** Adds the sums of {@code other}. */
    public void add(EngineTotals other) {
        tiers.add(other.tiers);
        preemptedHitTokens += other.preemptedHitTokens;
        preemptedQueriedTokens += other.preemptedQueriedTokens;
        preemptions += other.preemptions;
        allocationFailures += other.allocationFailures;
        headOfLineBlocks += other.headOfLineBlocks;
        specVerifySteps += other.specVerifySteps;
        specDraftTokens += other.specDraftTokens;
        specAcceptedTokens += other.specAcceptedTokens;
        encoderItems += other.encoderItems;
        encoderTokens += other.encoderTokens;
        encoderCacheHits += other.encoderCacheHits;
    }

    /** The KV tiers' counters (first admissions' hits and lookups included). */
    public KvTierTotals tiers() { return tiers; }
    /** Prefix-hit tokens of readmitted preempted requests. */
    public long preemptedHitTokens() { return preemptedHitTokens; }
    /** Looked-up prompt tokens of readmitted preempted requests. */
    public long preemptedQueriedTokens() { return preemptedQueriedTokens; }
    public long preemptions() { return preemptions; }
    public long allocationFailures() { return allocationFailures; }
    public long headOfLineBlocks() { return headOfLineBlocks; }
    /** Speculative decoding's verify steps with drafts ({@link Engine#specVerifySteps()}). */
    public long specVerifySteps() { return specVerifySteps; }
    public long specDraftTokens() { return specDraftTokens; }
    public long specAcceptedTokens() { return specAcceptedTokens; }
    /** Multimodal items the encoder ran ({@link Engine#encoderItems()}). */
    public long encoderItems() { return encoderItems; }
    public long encoderTokens() { return encoderTokens; }
    public long encoderCacheHits() { return encoderCacheHits; }
}
