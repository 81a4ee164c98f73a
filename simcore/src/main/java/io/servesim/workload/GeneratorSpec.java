package io.servesim.workload;

import java.util.List;
import java.util.OptionalLong;

/**
 * A synthetic workload (workload spec v2, after BLIS {@code sim/workload/spec.go}): clients sharing
 * an aggregate rate, generated lazily by {@link GeneratorSource}.
 *
 * @param seed              the workload's own seed (random streams derive from it instead of the run's seed), if given
 * @param aggregateRateRps  arrivals per second across the clients that have a rate (sessions count once: follow-up
 *                          turns and agentic steps come on top); 0 when every client's arrival process sets its own
 * @param numRequests       stop after this many requests in total, follow-up turns and agentic steps included
 *                          (sessions then end cut_by_limit); 0 = no limit
 * @param horizonUs         no request arrives after this time; 0 = no limit (the run's horizon also applies)
 * @param clients           the clients, rate fractions normalised to sum to 1 (0 for a client whose arrival process
 *                          sets its own rate)
 * @param warnings          non-fatal notes from binding (e.g. rate fractions normalised)
 * @param stages            a staged load (each stage's rate replaces the aggregate rate, which is then 0), or empty
 * @param stageIntervalUs   staged load: the pause between one stage draining and the next starting
 */
public record GeneratorSpec(OptionalLong seed, double aggregateRateRps, long numRequests, long horizonUs,
                            List<ClientSpec> clients, List<String> warnings, List<Stage> stages, long stageIntervalUs)
        implements WorkloadSpec {
    public GeneratorSpec {
        clients = List.copyOf(clients);
        warnings = List.copyOf(warnings);
        stages = List.copyOf(stages);
    }

    @Override
    public int largestMediaItemTokens() {
        int largest = 0;
        for (ClientSpec c : clients) {
            if (c.multimodal() != null) {
                largest = Math.max(largest, c.multimodal().largestItemTokens());
            }
        }
        return largest;
    }

    @Override
    public boolean sendsAudioOrVideo() {
        return clients.stream().anyMatch(c -> c.multimodal() != null && c.multimodal().sendsAudioOrVideo());
    }

    /** A workload without stages. */
    public GeneratorSpec(OptionalLong seed, double aggregateRateRps, long numRequests, long horizonUs,
                         List<ClientSpec> clients, List<String> warnings) {
        this(seed, aggregateRateRps, numRequests, horizonUs, clients, warnings, List.of(), 0);
    }

    /** This workload at another aggregate rate and request limit, with these warnings. */
    public GeneratorSpec with(double rateRps, long requests, List<String> notes) {
        return new GeneratorSpec(seed, rateRps, requests, horizonUs, clients, notes, stages, stageIntervalUs);
    }

    /**
     * This workload with {@code network} for every client that gives none of its own (the serving front end's
     * {@code frontend.network_rtt_us}): its sends then follow its arrival process and reach the server a request leg
     * later, and a session's next turn is sent a think time after the previous response reached the client, as for a
     * client with its own {@code network:}.
     */
    public GeneratorSpec withDefaultNetwork(NetworkSpec network) {
        List<ClientSpec> given = clients.stream().map(c -> c.network() == null ? c.withNetwork(network) : c).toList();
        return new GeneratorSpec(seed, aggregateRateRps, numRequests, horizonUs, given, warnings, stages, stageIntervalUs);
    }

    /** Whether some client runs at a share of the aggregate rate (else every client's arrival process sets its own). */
    public boolean hasRate() {
        return clients.stream().anyMatch(c -> c.arrival().hasRate());
    }

    @Override
    public RequestSource open(long runSeed, long runHorizonUs) {
        long horizon = runHorizonUs <= 0 ? horizonUs : horizonUs <= 0 ? runHorizonUs : Math.min(horizonUs, runHorizonUs);
        return new GeneratorSource(this, seed.orElse(runSeed), horizon);
    }
}
