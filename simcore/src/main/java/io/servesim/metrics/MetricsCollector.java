package io.servesim.metrics;

import io.servesim.engine.Engine;
import io.servesim.engine.EngineObserver;
import io.servesim.engine.Invariants;
import io.servesim.engine.Request;
import io.servesim.latency.StepShape;
import it.unimi.dsi.fastutil.longs.LongArrayList;
import org.HdrHistogram.Histogram;

/**
 * Turns engine callbacks into streamed {@link RequestRecord}s and run aggregates. Keeps one
 * primitive per finished request per latency metric (for exact percentiles) and O(1) state
 * otherwise; per-token ITL goes into an HdrHistogram.
 */
public final class MetricsCollector implements EngineObserver {
    private final RecordSink sink;
    private final LongArrayList ttftUs = new LongArrayList();
    private final LongArrayList e2eUs = new LongArrayList();
    private final LongArrayList tpotUs = new LongArrayList();
    private final LongArrayList schedulingUs = new LongArrayList();
    private final LongArrayList queueingUs = new LongArrayList();
    private final Histogram tokenItl = new Histogram(3);
    private long completed;
    private long dropped;
    private long unfinished;
    private long inputTokensCompleted;
    private long outputTokensCompleted;
    private double kvUtilStepWeighted;
    private double stepTimeTotalUs;
    private double kvUtilPeak;
    private long batchSeqsTotal;
    private long steps;
    private long firstArrivalUs = -1;

    public MetricsCollector(RecordSink sink) {
        this.sink = sink;
    }

    /** Called once per injected request, in arrival order. */
    public void onInjected(Request r) {
        if (firstArrivalUs < 0) {
            firstArrivalUs = r.arrivalUs();
        }
    }

    @Override
    public void onStep(Engine engine, long nowUs, long stepTimeUs, StepShape shape) {
        double util = engine.kvCache().utilization();
        kvUtilStepWeighted += util * stepTimeUs;
        stepTimeTotalUs += stepTimeUs;
        kvUtilPeak = Math.max(kvUtilPeak, util);
        batchSeqsTotal += shape.batchSize();
        steps++;
    }

    @Override
    public void onInterTokenLatency(long itlUs, int count) {
        tokenItl.recordValueWithCount(itlUs, count);
    }

    @Override
    public void onLeft(Engine engine, Request r, long nowUs) {
        assert Invariants.checkCausality(r);
        if (r.state() == Request.State.COMPLETED) {
            completed++;
            inputTokensCompleted += r.inputTokens();
            outputTokensCompleted += r.generatedTokens();
            RequestRecord rec = record(r, RequestRecord.COMPLETED);
            ttftUs.add(rec.ttftUs());
            e2eUs.add(rec.e2eUs());
            tpotUs.add(Math.round(rec.meanItlUs()));
            schedulingUs.add(rec.schedulingDelayUs());
            queueingUs.add(rec.queueingDelayUs());
            sink.accept(rec);
        } else {
            dropped++;
            sink.accept(record(r, RequestRecord.DROPPED));
        }
    }

    /** A request still in the system at the horizon. */
    public void onUnfinished(Request r) {
        unfinished++;
        sink.accept(record(r, RequestRecord.UNFINISHED));
    }

    public long completed() { return completed; }
    public long dropped() { return dropped; }
    public long unfinished() { return unfinished; }

    private static RequestRecord record(Request r, String status) {
        boolean done = RequestRecord.COMPLETED.equals(status);
        long arrival = r.arrivalUs();
        long ttft = r.firstTokenUs() >= 0 ? r.firstTokenUs() - arrival : -1;
        long e2e = done ? r.completionUs() - arrival : -1;
        int out = r.generatedTokens();
        double itl = done && out > 1 ? (double) (r.completionUs() - r.firstTokenUs()) / (out - 1) : 0;
        long sched = r.firstScheduleUs() >= 0 ? r.firstScheduleUs() - arrival : -1;
        long queued = r.firstScheduleUs() >= 0 && r.enqueueUs() >= 0 ? r.firstScheduleUs() - r.enqueueUs() : -1;
        var t = r.tags();
        return new RequestRecord(r.id(), r.instanceId(), t.clientId(), t.tenantId(), t.sloClass(), t.sessionId(),
                t.turnIndex(), r.priority(), r.streaming(), r.inputTokens(), out, r.outputTokens(),
                r.prefixHitTokens(), r.preemptions(), arrival, r.enqueueUs(), r.firstScheduleUs(),
                r.firstTokenUs(), done || r.state() == Request.State.DROPPED ? r.completionUs() : -1,
                ttft, e2e, itl, sched, queued, status,
                r.dropReason() == null ? null : r.dropReason().name().toLowerCase(java.util.Locale.ROOT),
                r.lengthCapped());
    }

    /** Aggregates; {@code endUs} is the clock at the end of the run. */
    public RunSummary summary(String latencyName, String latencyDescription, long totalKvBlocks, long injected,
                              long endUs, long preemptions, long kvAllocationFailures, double cacheHitRate,
                              long eventsProcessed) {
        double durationS = firstArrivalUs < 0 ? 0 : Math.max(0, endUs - firstArrivalUs) / 1e6;
        return new RunSummary(latencyName, latencyDescription, totalKvBlocks, injected, completed, dropped,
                unfinished, Distribution.ofMicros(Percentiles.of(ttftUs)), Distribution.ofMicros(Percentiles.of(e2eUs)),
                Distribution.ofMicros(Percentiles.of(tpotUs)), tokenItlDistribution(),
                Distribution.ofMicros(Percentiles.of(schedulingUs)), Distribution.ofMicros(Percentiles.of(queueingUs)),
                durationS, rate(completed, durationS), rate(inputTokensCompleted, durationS),
                rate(outputTokensCompleted, durationS), preemptions, kvAllocationFailures, cacheHitRate,
                stepTimeTotalUs == 0 ? 0 : kvUtilStepWeighted / stepTimeTotalUs, kvUtilPeak,
                steps == 0 ? 0 : (double) batchSeqsTotal / steps, steps, eventsProcessed);
    }

    private Distribution tokenItlDistribution() {
        if (tokenItl.getTotalCount() == 0) {
            return Distribution.EMPTY;
        }
        return new Distribution((int) Math.min(Integer.MAX_VALUE, tokenItl.getTotalCount()), tokenItl.getMean() / 1e3,
                tokenItl.getMinValue() / 1e3, tokenItl.getValueAtPercentile(50) / 1e3,
                tokenItl.getValueAtPercentile(90) / 1e3, tokenItl.getValueAtPercentile(95) / 1e3,
                tokenItl.getValueAtPercentile(99) / 1e3, tokenItl.getMaxValue() / 1e3);
    }

    private static double rate(long count, double seconds) {
        return seconds <= 0 ? 0 : count / seconds;
    }
}
