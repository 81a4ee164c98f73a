package io.servesim.metrics;

/**
 * A request's P/D handoff as its record reports it (columns {@code prefill_instance} ..
 * {@code decode_alloc_wait_us}); every field -1 for a request that was not disaggregated ({@link #NONE}),
 * as the request rows' other optional columns (loop_iteration, fan_out_index) use -1.
 *
 * @param prefillInstance   engine id that ran its prefill
 * @param decodeInstance    engine id its decode was routed to
 * @param transferStartUs   when its decode blocks were reserved and its KV began to move
 * @param transferEndUs     when its KV arrived at the decode instance
 * @param bandwidthWaitUs   its bytes' time on the link beyond their time alone (bandwidth shared with others)
 * @param decodeAllocWaitUs the prefill's end to the transfer's start (waiting in the decode instance's queue for blocks)
 */
public record Handoff(int prefillInstance, int decodeInstance, long transferStartUs, long transferEndUs,
                      long bandwidthWaitUs, long decodeAllocWaitUs) {
    public static final Handoff NONE = new Handoff(-1, -1, -1, -1, -1, -1);
}
