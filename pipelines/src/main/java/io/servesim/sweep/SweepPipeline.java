package io.servesim.sweep;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.coders.SerializableCoder;
import org.apache.beam.sdk.extensions.avro.coders.AvroCoder;
import org.apache.beam.sdk.io.FileIO;
import org.apache.beam.sdk.io.parquet.ParquetIO;
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
 * output directory, written by {@code FileIO.write().via(ParquetIO.sink(schema))} with a fixed
 * number of shards so file names do not depend on the runner or its parallelism.
 */
public final class SweepPipeline {
    /** Files per dataset: requests are the bulk, the others are small. */
    static int shards(Dataset d) {
        return d == Dataset.REQUESTS ? 2 : 1;
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
            if (d != Dataset.CELLS) {
                others.add(RunCellFn.tag(d));
            }
        }
        PCollectionTuple rows = cells.apply("RunCell",
                ParDo.of(new RunCellFn(schemas, outputs, progressKey))
                        .withOutputTags(RunCellFn.tag(Dataset.CELLS), TupleTagList.of(others)));
        List<Dataset> written = new ArrayList<>();
        for (Dataset d : Dataset.values()) {
            Schema schema = schemas.get(d);
            PCollection<GenericRecord> out = rows.get(RunCellFn.tag(d)).setCoder(AvroCoder.of(schema));
            if (!outputs.writes(d)) {
                continue;
            }
            out.apply("Write " + d.directory(), FileIO.<GenericRecord>write()
                    .via(ParquetIO.sink(schema))
                    .to(outDir.resolve(d.directory()).toString())
                    .withPrefix("part")
                    .withSuffix(".parquet")
                    .withNumShards(shards(d)));
            written.add(d);
        }
        return written;
    }
}
