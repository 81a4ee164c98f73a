package io.servesim.metrics;

import io.servesim.cluster.ClusterObserver;
import io.servesim.engine.Engine;
import io.servesim.engine.EngineObserver;
import io.servesim.engine.Invariants;
import io.servesim.engine.Request;
import io.servesim.latency.StepShape;
import io.servesim.slo.SloTargets;
import it.unimi.dsi.fastutil.doubles.DoubleArrayList;
import it.unimi.dsi.fastutil.ints.IntArrayList;
import it.unimi.dsi.fastutil.longs.LongArrayList;
import java.util.Locale;
import org.HdrHistogram.Histogram;

/**
 * Turns engine and control-plane callbacks into streamed {@link RequestRecord}s and run
 * aggregates. Per completed request it keeps a few primitives (latencies, group indices, arrival,
 * schedule time and priority rank: about 106 bytes) for exact percentiles, per-group breakdowns and
 * exact priority-inversion counts; everything else is O(1). Per-token ITL goes to an HdrHistogram.
 */
public final class MetricsCollector implements EngineObserver, ClusterObserver {
    private final RecordSink sink;
    private final SloTargets slo;
    private final LongArrayList ttftUs = new LongArrayList();
    private final LongArrayList e2eUs = new LongArrayList();
    /** Per completed request, TTFT and E2E as its client sees them (with the network's legs). */
    private final LongArrayList clientTtftUs = new LongArrayList();
    /** Time to first answer token of completed requests with reasoning tokens and an answer token. */
    private final LongArrayList ttfatUs = new LongArrayList();
    private final LongArrayList clientTtfatUs = new LongArrayList();
    private final LongArrayList clientE2eUs = new LongArrayList();
    /**
     * Per completed request, its TPOT, or {@link #NO_TPOT} for a one-token output: vLLM's benchmark
     * ({@code benchmarks/benchmark_serving.py}, {@code calculate_metrics}) takes TPOT over requests
     * with {@code output_len > 1} only, so such requests are left out of TPOT statistics and their
     * class's TPOT target does not apply to them.
     */
    private final LongArrayList tpotUs = new LongArrayList();
    private final LongArrayList schedulingUs = new LongArrayList();
    private final LongArrayList queueingUs = new LongArrayList();
    private final IntArrayList classIdx = new IntArrayList();
    private final IntArrayList tenantIdx = new IntArrayList();
    private final IntArrayList instanceIdx = new IntArrayList();
    private final LongArrayList ids = new LongArrayList();
    private final LongArrayList arrivalUs = new LongArrayList();
    private final DoubleArrayList rank = new DoubleArrayList();
    private final GroupCounters classes = new GroupCounters();
    private final GroupCounters tenants = new GroupCounters();
    private final Histogram tokenItl = new Histogram(3);
    private long completed;
    private long dropped;
    private long rejected;
    private long delayed;
    private long unfinished;
    private long sloMet;
    private long inputTokensCompleted;
    private long outputTokensCompleted;
    /** Of {@link #outputTokensCompleted}, the reasoning tokens. */
    private long reasoningTokensCompleted;
    private double kvUtilStepWeighted;
    private double stepTimeTotalUs;
    private double kvUtilPeak;
    private long batchSeqsTotal;
    private long steps;
    private long firstArrivalUs = -1;
    private long lastArrivalUs = -1;
    /** Each request's P/D handoff, for its record (none without P/D). */
    private java.util.function.Function<Request, Handoff> handoffs = r -> Handoff.NONE;

    public MetricsCollector(RecordSink sink, SloTargets slo) {
        this.sink = sink;
        this.slo = slo;
    }

    /** Records take their P/D handoff from {@code lookup} (asked as a request leaves, before its handoff ends). */
    public void handoffsFrom(java.util.function.Function<Request, Handoff> lookup) {
        this.handoffs = lookup;
    }

    @Override
    public void onInjected(Request r) {
        if (firstArrivalUs < 0) {
            firstArrivalUs = r.arrivalUs();
        }
        lastArrivalUs = Math.max(lastArrivalUs, r.arrivalUs());
        GroupCounters.inc(classes.injected, classes.of(r.tags().sloClass()));
        GroupCounters.inc(tenants.injected, tenants.of(r.tags().tenantId()));
    }

    @Override
    public void onRejected(Request r, String reason, long nowUs) {
        rejected++;
        GroupCounters.inc(classes.rejected, classes.of(r.tags().sloClass()));
        GroupCounters.inc(tenants.rejected, tenants.of(r.tags().tenantId()));
        sink.accept(RequestRecords.of(r, RequestRecord.REJECTED, reason, nowUs, Handoff.NONE));
    }

    @Override
    public void onDelayed(Request r, long delayUs) {
        delayed++;
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
        int c = classes.of(r.tags().sloClass());
        int t = tenants.of(r.tags().tenantId());
        if (r.state() != Request.State.COMPLETED) {
            dropped++;
            GroupCounters.inc(classes.dropped, c);
            GroupCounters.inc(tenants.dropped, t);
            sink.accept(RequestRecords.of(r, RequestRecord.DROPPED, reason(r), -1, handoffs.apply(r)));
            return;
        }
        completed++;
        inputTokensCompleted += r.inputTokens();
        outputTokensCompleted += r.generatedTokens();
        RequestRecord rec = RequestRecords.of(r, RequestRecord.COMPLETED, null, -1, handoffs.apply(r));
        reasoningTokensCompleted += rec.reasoningTokens();
        if (rec.reasoningTokens() > 0 && rec.firstAnswerTokenUs() >= 0) {
            ttfatUs.add(rec.ttfatUs());
            clientTtfatUs.add(rec.clientTtfatUs());
        }
        ttftUs.add(rec.ttftUs());
        e2eUs.add(rec.e2eUs());
        clientTtftUs.add(rec.clientTtftUs());
        clientE2eUs.add(rec.clientE2eUs());
        boolean hasTpot = rec.outputTokens() > 1;
        tpotUs.add(hasTpot ? Math.round(rec.meanItlUs()) : NO_TPOT);
        schedulingUs.add(rec.schedulingDelayUs());
        queueingUs.add(rec.queueingDelayUs());
        classIdx.add(c);
        tenantIdx.add(t);
        instanceIdx.add(r.instanceId());
        ids.add(r.id());
        arrivalUs.add(r.arrivalUs());
        rank.add(referencePriority(r));
        GroupCounters.inc(classes.completed, c);
        GroupCounters.inc(tenants.completed, t);
        if (slo.of(r.tags().sloClass()).met(rec.ttftUs() / 1e3, hasTpot ? rec.meanItlUs() / 1e3 : Double.NaN, rec.e2eUs() / 1e3)) {
            sloMet++;
            GroupCounters.inc(classes.met, c);
            GroupCounters.inc(tenants.met, t);
        }
        sink.accept(rec);
    }

    /** Marks a completed request without a TPOT (one output token) in {@link #tpotUs()}. */
    static final long NO_TPOT = -1;

    /** The TPOTs of {@code tpotUs} that are defined. */
    static LongArrayList withTpot(LongArrayList tpotUs) {
        LongArrayList out = new LongArrayList(tpotUs.size());
        for (int i = 0; i < tpotUs.size(); i++) {
            if (tpotUs.getLong(i) != NO_TPOT) {
                out.add(tpotUs.getLong(i));
            }
        }
        return out;
    }

    /** A request still in the system at {@code horizonUs} (when the run has none: when it ended). */
    public void onUnfinished(Request r, long horizonUs) {
        unfinished++;
        sink.accept(RequestRecords.unfinished(r, handoffs.apply(r), horizonUs));
    }

    public long completed() { return completed; }
    public long dropped() { return dropped; }
    public long rejected() { return rejected; }
    public long unfinished() { return unfinished; }

    /**
     * The priority a request deserves regardless of the configured policy, used to detect
     * inversions: its SLO class's importance (realtime > interactive > standard > batch >
     * background, {@link SloTargets#DEFAULT_CLASS_IMPORTANCE}) plus the workload's
     * own per-request priority.
     */
    static double referencePriority(Request r) {
        return SloTargets.DEFAULT_CLASS_IMPORTANCE.getOrDefault(r.tags().sloClass(), 0.0) + r.priority();
    }

    private static String reason(Request r) {
        return r.dropReason() == null ? null : r.dropReason().name().toLowerCase(Locale.ROOT);
    }

    /**
     * Aggregates of the run: {@code run} holds what the simulation knows beyond this collector's tallies (the latency
     * model, injected requests, the engines' totals, the KV tiers, autoscaling and the sessions); this adds the
     * collector's metrics and the cluster's and P/D's parts, and scores the fitness.
     *
     * @param endUs               clock at the end of the run
     * @param requestsPerInstance requests per instance id, each counted once where it was last routed (under P/D once
     *                            in each pool it was routed over)
     * @param headOfLineBlocks    head-of-line blocking steps over all instances
     * @param pd                  the architecture, P/D pools and transfers (goodput per GPU and utilizations not yet known)
     * @param fitness             fitness weights (may be empty: the fitness is then NaN)
     */
    public RunSummary summary(RunSummary.Builder run, long endUs, long[] requestsPerInstance, long headOfLineBlocks,
                              PdSummary pd, FitnessWeights fitness) {
        double durationS = firstArrivalUs < 0 ? 0 : Math.max(0, endUs - firstArrivalUs) / 1e6;
        double arrivalWindowS = firstArrivalUs < 0 ? 0 : (lastArrivalUs - firstArrivalUs) / 1e6;
        Distribution ttft = distribution(ttftUs);
        Distribution tpot = distribution(withTpot(tpotUs));
        Distribution e2e = distribution(e2eUs);
        ClusterSummary cluster = new ClusterBreakdown(this, ttft, tpot, e2e)
                .summarize((Long) run.get("injected"), requestsPerInstance, pd, headOfLineBlocks, durationS);
        RunSummary s = run.put("completed", completed).put("dropped", dropped).put("rejected", rejected)
                .put("unfinished", unfinished)
                .put("ttft_ms", ttft).put("e2e_ms", e2e).put("tpot_ms", tpot).put("itl_ms", tokenItlDistribution())
                .put("client_ttft_ms", distribution(clientTtftUs)).put("client_e2e_ms", distribution(clientE2eUs))
                .put("scheduling_delay_ms", distribution(schedulingUs)).put("queueing_delay_ms",
                        distribution(queueingUs))
                .put("ttfat_ms", distribution(ttfatUs)).put("client_ttfat_ms", distribution(clientTtfatUs))
                .put("duration_s", durationS).put("throughput_rps", rate(completed, durationS))
                .put("offered_rps", arrivalWindowS > 0 ? (Long) run.get("injected") / arrivalWindowS : Double.NaN)
                .put("input_tokens_per_s", rate(inputTokensCompleted, durationS))
                .put("output_tokens_per_s", rate(outputTokensCompleted, durationS))
                .put("answer_tokens_per_s", rate(outputTokensCompleted - reasoningTokensCompleted, durationS))
                .put("kv_utilization_mean", stepTimeTotalUs == 0 ? 0 : kvUtilStepWeighted / stepTimeTotalUs)
                .put("kv_utilization_peak", kvUtilPeak)
                .put("batch_size_mean", steps == 0 ? 0 : (double) batchSeqsTotal / steps).put("steps", steps)
                .put("fitness", Double.NaN)
                .cluster(cluster).pd(pd.finish(cluster.goodputRps(), durationS, requestsPerInstance)).build();
        return fitness.isEmpty() ? s : s.toBuilder().put("fitness", fitness.score(s)).build();
    }

    private static Distribution distribution(LongArrayList us) {
        return Distribution.ofMicros(Percentiles.of(us));
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

    static double rate(long count, double seconds) {
        return seconds <= 0 ? 0 : count / seconds;
    }

    // ---- read by ClusterBreakdown ----
    LongArrayList ttftUs() { return ttftUs; }
    LongArrayList tpotUs() { return tpotUs; }
    LongArrayList e2eUs() { return e2eUs; }
    LongArrayList schedulingUs() { return schedulingUs; }
    IntArrayList classIdx() { return classIdx; }
    IntArrayList tenantIdx() { return tenantIdx; }
    IntArrayList instanceIdx() { return instanceIdx; }
    LongArrayList ids() { return ids; }
    LongArrayList arrivalUs() { return arrivalUs; }
    DoubleArrayList rank() { return rank; }
    GroupCounters classes() { return classes; }
    GroupCounters tenants() { return tenants; }
    /** Admission decisions that delayed a request (each retry of a request delayed again counts). */
    public long delayed() { return delayed; }
    long sloMet() { return sloMet; }
}
