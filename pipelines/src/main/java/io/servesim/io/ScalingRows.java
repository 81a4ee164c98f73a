package io.servesim.io;

import io.servesim.metrics.ReplicaCounts;
import org.apache.avro.generic.GenericRecord;

/**
 * Converts a row of the replica timeline ({@link ReplicaCounts}) into an Avro row of
 * {@code schemas/scaling.avsc}. The target schema may carry extra leading columns (a sweep's cell
 * id and axis labels); only the timeline fields are filled here, by name.
 */
public final class ScalingRows {
    private ScalingRows() {
    }

    /** Sets every field of {@code schemas/scaling.avsc} on {@code row}. */
    public static void fill(GenericRecord row, ReplicaCounts c) {
        row.put("time_us", c.timeUs());
        row.put("provisioning_replicas", c.provisioning());
        row.put("loading_replicas", c.loading());
        row.put("warming_replicas", c.warming());
        row.put("ready_replicas", c.ready());
        row.put("draining_replicas", c.draining());
    }
}
