package io.servesim.sweep;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.coders.ByteArrayCoder;
import org.apache.beam.sdk.coders.SerializableCoder;
import org.apache.beam.sdk.io.FileIO;
import org.apache.beam.sdk.transforms.Create;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.Reshuffle;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PCollectionTuple;
import org.apache.beam.sdk.values.TupleTag;
import org.apache.beam.sdk.values.TupleTagList;

/**
 * The sweep as a Beam pipeline: validated cells -> Reshuffle (spreads cells over workers) ->
 * {@link RunCellFn} (one kernel run per cell) -> one Parquet dataset per {@link Dataset} under the
 * output directory, written by {@code FileIO.write()} via ParquetIO's sink (per row of each cell's
 * {@link RowBatch}, {@link RowBatchSink}). Only written datasets are outputs of the DoFn, so no
 * runner carries rows nobody reads. Rows never depend on the runner or its parallelism; how the
 * per-request rows are split into files does (see {@link #shards}).
 */
public final class SweepPipeline {
    /**
     * Files per dataset: one for the small per-cell datasets; the runner's choice (0) for the bulky
     * per-request, per-session and per-decision ones. Pinning shards there would group every row by shard first, which the
     * DirectRunner does by copying its whole in-memory state per bundle (quadratic in the rows).
     */
    static int shards(Dataset d) {
        return d == Dataset.REQUESTS || d == Dataset.SESSIONS || d == Dataset.DECISIONS ? 0 : 1;
    }

    private SweepPipeline() {
    }

    /** Adds the sweep's transforms to {@code p}; the datasets it writes, in order. */
    public static List<Dataset> build(Pipeline p, SweepPlan plan, Path outDir, String progressKey) {
        Map<Dataset, Schema> schemas = DatasetSchemas.forAxes(plan.spec().axisNames());
        SweepOutputs outputs = plan.spec().outputs();
        PCollection<Cell> cells = p
                .apply("Cells", Create.of(plan.cells()).withCoder(SerializableCoder.of(Cell.class)))
                .apply("Spread", Reshuffle.viaRandomKey());
        List<TupleTag<?>> others = new ArrayList<>();
        for (Dataset d : Dataset.values()) {
            if (d != Dataset.CELLS && outputs.writes(d)) {
                others.add(RunCellFn.tag(d));
            }
        }
        PCollectionTuple rows = cells.apply("RunCell",
                ParDo.of(new RunCellFn(plan.spec().axisNames(), outputs, progressKey))
                        .withOutputTags(RunCellFn.tag(Dataset.CELLS), TupleTagList.of(others)));
        List<Dataset> written = new ArrayList<>();
        for (Dataset d : Dataset.values()) {
            if (!outputs.writes(d)) {
                continue;
            }
            PCollection<byte[]> out = rows.get(RunCellFn.tag(d)).setCoder(ByteArrayCoder.of());
            FileIO.Write<Void, byte[]> write = FileIO.<byte[]>write()
                    .via(new RowBatchSink(schemas.get(d)))
                    .to(outDir.resolve(d.directory()).toString())
                    .withPrefix("part")
                    .withSuffix(".parquet");
            out.apply("Write " + d.directory(), shards(d) > 0 ? write.withNumShards(shards(d)) : write);
            written.add(d);
        }
        return written;
    }
}
