package io.servesim.workload;

import io.servesim.rng.PartitionedRng;

/**
 * A shared system prompt ({@code prefix: {group, length}}): every request of the client starts
 * with {@code lengthTokens} tokens of the group's content, so requests of all clients naming the
 * same group share KV blocks and hit the prefix cache. The content id depends on the group name
 * only, not on the seed or the client.
 *
 * @param group        prefix group name
 * @param lengthTokens tokens of shared prefix (prepended to the sampled input)
 */
public record PrefixSpec(String group, int lengthTokens) {
    /** Content id of the group's tokens. */
    public long contentId() {
        return PartitionedRng.mix64(PartitionedRng.fnv1a64("prefix-group:" + group));
    }
}
