package io.servesim.plan;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One deployment a plan considers: a GPU type, its tensor-parallel degree, a fleet of engine instances and one of the
 * plan's engine settings, with what it costs per hour. It is the plan's base config with {@link #assignments()}
 * applied (config path to value, as a sweep axis sets them).
 *
 * @param index          position in the plan's space (the order of {@code space:}, the fleet fastest)
 * @param id             {@code H100-tp1-x4-default}: GPU, TP, fleet, engine setting
 * @param gpu            the GPU's canonical name
 * @param tp             tensor-parallel degree of every instance
 * @param fleet          the instances
 * @param engine         the label of its engine setting ({@code space.engine})
 * @param assignments    config path to value, applied to the base config in order
 * @param usdPerGpuHour  price of one GPU per hour, US dollars (NaN when unknown: a capacity search of a config)
 * @param priceSource    where the price comes from (the GPU table's source, or the plan's {@code prices.<gpu>})
 */
public record Candidate(int index, String id, String gpu, int tp, Fleet fleet, String engine,
                        Map<String, JsonNode> assignments, double usdPerGpuHour, String priceSource) {
    /** Cost per hour, then GPUs: what the plan minimizes; candidates equal on both are alike in price. */
    public static final Comparator<Candidate> PRICE = Comparator.comparingDouble(Candidate::costUsdPerHour)
            .thenComparingInt(Candidate::gpus);

    /** {@link #PRICE}, then the first in the space: a total order. */
    public static final Comparator<Candidate> CHEAPEST = PRICE.thenComparingInt(Candidate::index);

    public Candidate {
        assignments = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(assignments));
    }

    /** GPUs the deployment holds: instances x TP. */
    public int gpus() {
        return fleet.instances() * tp;
    }

    /** What the deployment costs per hour, US dollars: GPUs x price per GPU-hour. */
    public double costUsdPerHour() {
        return gpus() * usdPerGpuHour;
    }

    /**
     * The candidates that differ from this one only in their number of aggregated replicas: on a fixed trace more
     * replicas never sustain less by more than one step of the rate grid ({@code ReplicaMonotonicityTest} checks it),
     * which the search's pruning relies on. None for P/D: a P/D fleet is two pools, and more instances in a worse ratio can sustain less. None for
     * a data-parallel deployment: its ranks share one load balancer and, with expert parallelism, step in lockstep,
     * so the order is not assumed.
     */
    public String family() {
        return fleet instanceof Fleet.Aggregated ? gpu + "-tp" + tp + "-" + engine : null;
    }
}
