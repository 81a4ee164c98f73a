package io.servesim.workload;

import io.servesim.engine.Request;
import io.servesim.engine.RequestTags;
import io.servesim.engine.TokenSequence;
import io.servesim.rng.PartitionedRng;
import java.util.SplittableRandom;

/**
 * The simple generator: arrivals from a Poisson process (exponential gaps) or at a constant rate,
 * prompt and output lengths from {@link LengthSpec}s, until {@code numRequests} requests or the
 * horizon. An optional shared prefix ({@code prefixTokens} of one group) precedes each prompt's
 * sampled unique part, so prefix caching sees real hits. Arrival times accumulate in double
 * precision and are rounded per request, so the rate is exact in expectation.
 *
 * <p>Draws come from separate partitioned streams ({@code workload.arrivals},
 * {@code workload.input}, {@code workload.output}); changing one distribution leaves the others'
 * samples untouched.
 */
public final class SyntheticSource implements RequestSource {
    private final SyntheticSpec spec;
    private final long horizonUs;
    private final SplittableRandom arrivals;
    private final SplittableRandom inputs;
    private final SplittableRandom outputs;
    private final long contentSalt;
    private final long prefixId;
    private double clockUs;
    private long produced;

    public SyntheticSource(SyntheticSpec spec, long seed, long horizonUs) {
        this.spec = spec;
        this.horizonUs = horizonUs;
        PartitionedRng rng = new PartitionedRng(seed);
        this.arrivals = rng.stream("workload.arrivals");
        this.inputs = rng.stream("workload.input");
        this.outputs = rng.stream("workload.output");
        this.contentSalt = PartitionedRng.streamSeed(seed, "workload.content");
        this.prefixId = PartitionedRng.fnv1a64("prefix-group:" + spec.prefixGroup());
    }

    @Override
    public Request next() {
        if (spec.numRequests() > 0 && produced >= spec.numRequests()) {
            return null;
        }
        double meanGapUs = 1e6 / spec.rateRps();
        double gap = spec.poisson() ? -Math.log(1.0 - arrivals.nextDouble()) * meanGapUs : meanGapUs;
        if (produced > 0 || spec.poisson()) {
            clockUs += gap;
        }
        long arrivalUs = Math.round(clockUs);
        if (horizonUs > 0 && arrivalUs > horizonUs) {
            return null;
        }
        long id = produced++;
        int unique = spec.input().sample(inputs);
        int out = spec.output().sample(outputs);
        long uniqueId = PartitionedRng.mix64(contentSalt + id);
        TokenSequence prompt = spec.prefixTokens() > 0
                ? TokenSequence.prefixed(prefixId, spec.prefixTokens(), uniqueId, unique)
                : TokenSequence.unique(uniqueId, unique);
        return new Request(id, RequestTags.DEFAULT, prompt, out, 0, arrivalUs, 0, true);
    }
}
