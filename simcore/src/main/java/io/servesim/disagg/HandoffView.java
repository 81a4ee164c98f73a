package io.servesim.disagg;

/**
 * One disaggregated request's handoff as its record reports it; -1 for what did not happen.
 *
 * @param prefillInstance     engine id of its prefill
 * @param decodeInstance      engine id of its decode
 * @param transferStartUs     when the decode blocks were reserved and the bytes began to move
 * @param transferEndUs       when the KV arrived at the decode instance
 * @param bandwidthWaitUs     the bytes' time beyond their time alone on the link
 * @param decodeAllocWaitUs   the prefill's end to the start (waiting for decode blocks)
 */
public record HandoffView(int prefillInstance, int decodeInstance, long transferStartUs, long transferEndUs,
                          long bandwidthWaitUs, long decodeAllocWaitUs) {
}
