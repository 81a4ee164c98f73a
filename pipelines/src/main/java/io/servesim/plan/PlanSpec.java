package io.servesim.plan;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import java.util.List;

/**
 * A bound plan ({@link PlanFile}), or a capacity search of one config ({@code servesim capacity}): the base run config,
 * the candidates it is varied into, the SLOs every run must meet and how to search.
 *
 * @param name        names the output folder ({@code out/<name>/}) and the rounds
 * @param base        the base run config (never mutated; each probe copies it)
 * @param baseDir     the folder relative paths in the base config resolve against
 * @param targetRps   the arrival rate to serve, requests per second; NaN for a capacity search of one config
 * @param startRps    the first rate a capacity search of one config tries (its own rate); NaN in a plan
 * @param slos        the objectives every run is judged by
 * @param candidates  the space, in order
 * @param search      how to search
 * @param seeds       the seeds every probe runs with (one trace per seed, the same for every candidate); a probe's
 *                    outcome is its worst seed's ({@link Outcome#worst})
 */
public record PlanSpec(String name, ObjectNode base, Path baseDir, double targetRps, double startRps, List<Slo> slos,
                       List<Candidate> candidates, SearchSettings search, List<Long> seeds) {
    public PlanSpec {
        slos = List.copyOf(slos);
        candidates = List.copyOf(candidates);
        seeds = List.copyOf(seeds);
        if (seeds.isEmpty()) {
            throw new IllegalArgumentException("a plan runs at least one seed");
        }
    }

    /** Whether this is a capacity search of one config (no target, no space). */
    public boolean capacityOnly() {
        return Double.isNaN(targetRps);
    }

    /** The grid capacity searches step on: anchored at the target (0 without one), {@code search.toleranceRps} apart. */
    public RateGrid grid() {
        return new RateGrid(capacityOnly() ? 0 : targetRps, search.toleranceRps(), search.maxRateRps());
    }
}
