package io.servesim.usercode;

import io.servesim.policy.api.Instances;
import io.servesim.policy.api.RequestView;

/** Fixed views for calling user code directly in tests. */
final class Views {
    private Views() {
    }

    /** A request of {@code tenant} with {@code inputTokens} prompt tokens, arrived at 0, class interactive. */
    static RequestView request(String tenant, int inputTokens) {
        return new RequestView() {
            @Override public long id() { return 1; }
            @Override public long arrivalUs() { return 0; }
            @Override public int inputTokens() { return inputTokens; }
            @Override public int maxOutputTokens() { return 0; }
            @Override public String clientId() { return "c"; }
            @Override public String tenantId() { return tenant; }
            @Override public String sloClass() { return "interactive"; }
            @Override public long sessionId() { return -1; }
            @Override public int turnIndex() { return 0; }
            @Override public double priority() { return 0; }
            @Override public double priorityRank() { return 0; }
            @Override public boolean streaming() { return true; }
        };
    }

    /** Instances with these loads and cached prefix blocks, nothing else (every other signal 0). */
    static Instances instances(long[] loads, int[] cached) {
        return new Instances() {
            @Override public int count() { return loads.length; }
            @Override public int id(int p) { return p; }
            @Override public int queueDepth(int p) { return 0; }
            @Override public int running(int p) { return 0; }
            @Override public long inTransit(int p) { return 0; }
            @Override public long load(int p) { return loads[p]; }
            @Override public long inFlight(int p) { return 0; }
            @Override public double kvUtilization(int p) { return 0; }
            @Override public int freeKvBlocks(int p) { return 0; }
            @Override public int totalKvBlocks(int p) { return 0; }
            @Override public double recentTtftUs(int p) { return 0; }
            @Override public double recentTpotUs(int p) { return 0; }
            @Override public double cacheHitRate(int p) { return 0; }
            @Override public double estimatedWaitUs(int p) { return 0; }
            @Override public int cachedPrefixBlocks(int p) { return cached[p]; }
            @Override public int cpuCachedPrefixBlocks(int p) { return 0; }
            @Override public double kvCpuUtilization(int p) { return 0; }
            @Override public double gpuHitRate(int p) { return 0; }
            @Override public double cpuHitRate(int p) { return 0; }
            @Override public int blockSizeTokens() { return 16; }
        };
    }
}
