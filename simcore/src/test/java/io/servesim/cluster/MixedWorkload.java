package io.servesim.cluster;

import io.servesim.engine.Request;
import io.servesim.engine.RequestTags;
import io.servesim.engine.TokenSequence;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * A deterministic test workload for cluster studies: Poisson arrivals, three SLO classes and
 * tenants, heavy-tailed (log-normal) prompt lengths, and optionally a shared system prompt per
 * prefix group.
 */
final class MixedWorkload {
    private MixedWorkload() {
    }

    static final String[] CLASSES = {"realtime", "interactive", "batch"};

    /**
     * @param n              requests
     * @param ratePerSec     arrival rate
     * @param sigma          log-normal sigma of prompt length (0 = constant 512)
     * @param prefixGroups   number of shared-prefix groups (0 = none); each prompt starts with its group's 1024 tokens
     */
    static List<Request> generate(int n, double ratePerSec, double sigma, int prefixGroups, long seed) {
        return generate(n, ratePerSec, sigma, 0, prefixGroups, seed);
    }

    /** As above, with output lengths log-normal around 64 tokens with {@code outputSigma} (0 = uniform 32..127). */
    static List<Request> generate(int n, double ratePerSec, double sigma, double outputSigma, int prefixGroups, long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        List<Request> out = new ArrayList<>(n);
        double t = 0;
        List<RequestTags> tags = new ArrayList<>();
        for (String c : CLASSES) {
            for (int tenant = 0; tenant < 2; tenant++) {
                tags.add(new RequestTags("client-" + c, "tenant-" + tenant, c, -1, 0));
            }
        }
        for (int i = 0; i < n; i++) {
            t += -Math.log(1 - rnd.nextDouble()) * 1e6 / ratePerSec;
            double g = Math.sqrt(-2 * Math.log(1 - rnd.nextDouble())) * Math.cos(2 * Math.PI * rnd.nextDouble());
            int input = (int) Math.max(16, Math.min(16_000, Math.round(512 * Math.exp(sigma * g - sigma * sigma / 2))));
            double g2 = Math.sqrt(-2 * Math.log(1 - rnd.nextDouble())) * Math.cos(2 * Math.PI * rnd.nextDouble());
            int output = outputSigma > 0
                    ? (int) Math.max(1, Math.min(4000, Math.round(80 * Math.exp(outputSigma * g2 - outputSigma * outputSigma / 2))))
                    : 32 + rnd.nextInt(96);
            RequestTags tag = tags.get(rnd.nextInt(tags.size()));
            TokenSequence prompt = prefixGroups > 0
                    ? TokenSequence.prefixed(7000 + rnd.nextInt(prefixGroups), 1024, 1_000_000L + i, input)
                    : TokenSequence.unique(1_000_000L + i, input);
            out.add(new Request(i, tag, prompt, output, 0, Math.round(t), 0, true));
        }
        return out;
    }
}
