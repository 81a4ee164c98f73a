package io.servesim.plan;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.servesim.config.ConfigException;
import io.servesim.config.ValueType;
import io.servesim.latency.GpuSpec;
import io.servesim.run.SimConfig;
import io.servesim.run.SimConfigLoader;
import io.servesim.workload.GeneratorSpec;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * A capacity search of one run config ({@code servesim capacity CONFIG --slo ...}) as a plan of one candidate, the
 * config as it is, with no target: its capacity is searched on a grid anchored at 0 from the config's own rate
 * ({@code workload.aggregate_rate}), doubling it until an SLO is missed, then cutting the bracket into
 * {@link #PROBES_PER_ROUND} + 1 parts a round, each run on the config's own trace ({@code workload.num_requests}).
 */
public final class CapacitySpec {
    /** Rates tried per round: the search is sequential, so a round runs several to use the workers. */
    public static final int PROBES_PER_ROUND = 3;
    /** The default tolerance is the config's rate over this. */
    public static final int DEFAULT_STEPS = 50;
    /** The default highest rate tried is the config's rate times this. */
    public static final int DEFAULT_MAX_FACTOR = 64;

    private CapacitySpec() {
    }

    /**
     * The search of {@code tree} (relative paths from {@code baseDir}), named {@code name}, within {@code slos}, on a
     * grid of {@code toleranceRps} (null: the config's rate / 50) up to {@code maxRateRps} (null: its rate x 64), every
     * rate run with each of {@code seeds} (null: the config's seed).
     */
    public static PlanSpec of(String name, ObjectNode tree, Path baseDir, List<Slo> slos, Double toleranceRps, Double maxRateRps,
                              List<Long> seeds) {
        JsonNode w = tree.get("workload");
        if (w == null || !w.isObject()) {
            throw new ConfigException("workload", "a capacity search sets the workload's aggregate_rate, so the workload must"
                    + " be inline (a mapping); copy the workload file's content into the config");
        }
        if (w.has("trace")) {
            throw new ConfigException("workload.trace", "a capacity search needs generated traffic whose rate it sets; a"
                    + " trace's arrivals are its timestamps");
        }
        SimConfig cfg = SimConfigLoader.bind(tree, baseDir);
        if (cfg.horizonUs() > 0) {
            throw new ConfigException(tree.has("horizon") ? "horizon" : "horizon_us", "a capacity search runs every request"
                    + " of its trace to the end (its verdicts count completed requests); a horizon of " + cfg.horizonUs()
                    + " us would cut every run short: remove it");
        }
        if (tree.has("fitness_weights")) {
            throw new ConfigException("fitness_weights", "a capacity search is judged by its --slo objectives; fitness"
                    + " weights would score nothing: remove them");
        }
        GeneratorSpec g = (GeneratorSpec) cfg.workload();
        if (!g.stages().isEmpty()) {
            throw new ConfigException("workload.stages", "a capacity search sets the workload's aggregate_rate; a staged"
                    + " load's stages set their own rates");
        }
        if (!g.hasRate()) {
            throw new ConfigException("workload.aggregate_rate", "a capacity search sets the workload's aggregate_rate, but"
                    + " every client's arrival process is distribution, whose inter_arrival_us sets its own rate");
        }
        double start = g.aggregateRateRps();
        double tolerance = toleranceRps != null ? toleranceRps : start / DEFAULT_STEPS;
        double max = maxRateRps != null ? maxRateRps : start * DEFAULT_MAX_FACTOR;
        if (!(tolerance > 0)) {
            throw new ConfigException("--tolerance", "must be > 0 requests per second, got " + tolerance);
        }
        if (!(max > tolerance)) {
            if (maxRateRps == null) {
                throw new ConfigException("--tolerance", "must be below the highest rate tried, the config's rate x "
                        + DEFAULT_MAX_FACTOR + " = " + ValueType.plain(max) + " req/s (give --max-rate to search higher), got "
                        + ValueType.plain(tolerance));
            }
            throw new ConfigException("--max-rate", "must be above the tolerance (" + ValueType.plain(tolerance) + " req/s), got "
                    + ValueType.plain(max));
        }
        if (max < start) {
            throw new ConfigException("--max-rate", "must be at least the config's own rate, " + ValueType.plain(start) + " req/s,"
                    + " where the search starts (lower the config's workload.aggregate_rate to search below it), got "
                    + ValueType.plain(max));
        }
        if (g.numRequests() <= 0 || g.numRequests() > Integer.MAX_VALUE) {
            throw new ConfigException("workload.num_requests", "a capacity search runs a trace of a fixed number of requests;"
                    + " give num_requests (e.g. 2000), got " + g.numRequests());
        }
        int requests = (int) g.numRequests();
        String hardware = cfg.latency().hardware();
        GpuSpec.Price price = cfg.latency().gpus().price(hardware);
        String gpu = cfg.latency().gpus().find(hardware).map(GpuSpec::name).orElse(String.valueOf(hardware));
        Fleet fleet;
        if (cfg.pd() != null) {
            fleet = new Fleet.Disaggregated(cfg.pd().prefill().replicas(), cfg.pd().decode().replicas());
        } else if (cfg.dataParallel() > 1) {
            fleet = new Fleet.DataParallel(cfg.dataParallel(), cfg.expertParallel());
        } else {
            fleet = new Fleet.Aggregated(cfg.cluster().instances());
        }
        Candidate config = new Candidate(0, "config", gpu, cfg.latency().tp(), fleet, "config", Map.of(), price.usdPerGpuHour(),
                price.known() ? price.source() : "none: the GPU table has no price for " + gpu);
        SearchSettings search = new SearchSettings(requests, requests, 2, 1, tolerance, max, PROBES_PER_ROUND);
        return new PlanSpec(name, tree, baseDir, Double.NaN, start, slos, List.of(config), search, seeds != null ? seeds : List.of(cfg.seed()));
    }
}
