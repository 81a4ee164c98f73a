package io.servesim.sweep;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.coders.ByteArrayCoder;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.coders.SerializableCoder;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.coders.VarIntCoder;
import org.apache.beam.sdk.io.FileIO;
import org.apache.beam.sdk.transforms.Contextful;
import org.apache.beam.sdk.transforms.Create;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.Flatten;
import org.apache.beam.sdk.transforms.GroupByKey;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.Reshuffle;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PCollectionList;

/**
 * The sweep as a Beam pipeline: validated cells -> spread over workers (or gathered, below) ->
 * {@link RunCellFn} (one kernel run per cell, emitting one {@link RowBatch} per written dataset,
 * keyed by the dataset's directory) -> the datasets as {@code <output>/<dataset>/part-*.parquet}:
 * on the DirectRunner one file per dataset per bundle of cells ({@link DatasetFileFn}), on Flink
 * one {@code FileIO.writeDynamic()} whose destinations are the datasets, each written by a Parquet
 * sink ({@link RowBatchSink}) per worker ({@link RunnerChoice#writesBundleFiles()}).
 *
 * <p>How cells are spread is the runner's ({@link RunnerChoice#cellsInBundles()}): Flink streams each
 * key's cells through the worker that owns it, so every cell gets its own random key; on the
 * DirectRunner the cells are gathered into a few large bundles ({@link #inBundles}), whose cells
 * {@link RunCellFn} runs on its own threads ({@link RunnerChoice#cellThreads()}).
 *
 * <p>One write for all datasets rather than one per dataset keeps the graph small: the
 * DirectRunner re-translates a ParDo for every bundle it evaluates, and Flink's batch translation
 * gives every output of a multi-output DoFn its own full copy of the stream. How rows are split
 * into files depends on the runner (on Flink, also on its parallelism); the rows themselves never do.
 */
public final class SweepPipeline {
    private SweepPipeline() {
    }

    /**
     * Adds the sweep's transforms to {@code p}: {@code toRun} (cells of {@code plan}) are run, and
     * the rows of cells that finished before an interruption are read back from {@code replay}
     * ({@link Checkpoint} files) into the same write. Cells are spread and datasets written as
     * {@code runner} says ({@link RunnerChoice#cellsInBundles()}, {@link RunnerChoice#writesBundleFiles()});
     * datasets go under {@code outDir}, finished cells' rows into {@code checkpointDir}. Returns the
     * datasets it writes, in order.
     */
    public static List<Dataset> build(Pipeline p, SweepPlan plan, List<Cell> toRun, List<String> replay, Path outDir,
                                      Path checkpointDir, String progressKey, RunnerChoice runner) {
        SweepOutputs outputs = plan.spec().outputs();
        Map<Dataset, Schema> schemas = DatasetSchemas.forAxes(plan.spec().axisNames());
        List<Dataset> written = new ArrayList<>();
        Map<String, String> schemaJson = new java.util.HashMap<>();
        for (Dataset d : Dataset.values()) {
            if (outputs.writes(d)) {
                written.add(d);
                schemaJson.put(d.directory(), schemas.get(d).toString());
            }
        }
        SerializableCoder<Cell> cellCoder = SerializableCoder.of(Cell.class);
        PCollection<Cell> spread = runner.cellsInBundles() ? inBundles(p, toRun, cellCoder)
                : p.apply("Cells", Create.of(toRun).withCoder(cellCoder)).apply("Spread", Reshuffle.viaRandomKey());
        KvCoder<String, byte[]> batchCoder = KvCoder.of(StringUtf8Coder.of(), ByteArrayCoder.of());
        PCollection<KV<String, byte[]>> ran = spread
                .apply("RunCell", ParDo.of(new RunCellFn(plan.spec().axisNames(), outputs, progressKey, checkpointDir,
                        runner.cellThreads())))
                .setCoder(batchCoder);
        PCollection<KV<String, byte[]>> rows = replay.isEmpty() ? ran : PCollectionList.of(ran)
                .and(p.apply("Finished", Create.of(replay).withCoder(StringUtf8Coder.of()))
                        .apply("ReadFinished", ParDo.of(new ReplayCheckpointFn())).setCoder(batchCoder))
                .apply("Rows", Flatten.pCollections());
        if (runner.writesBundleFiles()) {
            rows.apply("WriteDatasets", ParDo.of(new DatasetFileFn(outDir, schemaJson)));
        } else {
            rows.apply("Write", FileIO.<String, KV<String, byte[]>>writeDynamic()
                    .by(KV::getKey)
                    .withDestinationCoder(StringUtf8Coder.of())
                    .via(Contextful.fn(KV::getValue), Contextful.fn(dir -> new RowBatchSink(schemaJson.get(dir))))
                    .to(outDir.toString())
                    .withNaming(dir -> FileIO.Write.defaultNaming(dir + "/part", ".parquet")));
        }
        return written;
    }

    /** The most cells {@link #inBundles} puts in one bundle: a bundle's rows stay in memory until its last cell ends. */
    static final int MAX_CELLS_PER_BUNDLE = 64;

    /**
     * {@code xs} as a collection that reaches the next
     * transform, on the DirectRunner, in as few bundles as hold at most {@link #MAX_CELLS_PER_BUNDLE}
     * each: the elements are created keyed by position modulo the number of bundles, grouped once at the
     * end of the input (the default trigger of a batch {@code GroupByKey}), and each group expanded
     * by one ParDo. The runner evaluates one bundle after another, each to its last cell, so every
     * bundle boundary leaves cell threads idle while its slowest cell finishes; a bundle holds all
     * its rows until then, hence the cap. Neither a plain {@code Create} (12 elements came as 3
     * bundles) nor a {@code Reshuffle} would do: its trigger fires a pane whenever elements arrive,
     * and the quickstart's 12 cells reached {@link RunCellFn} as 6 bundles (4, 2, 2, 1, 2, 1 cells).
     * The keys are set as the elements are created, and one ParDo ungroups: the DirectRunner sets
     * up every ParDo of a pipeline (a generated invoker class, a round trip through its proto form)
     * before it runs it.
     */
    static <T> PCollection<T> inBundles(Pipeline p, List<T> xs, Coder<T> coder) {
        int bundles = Math.max(1, (xs.size() + MAX_CELLS_PER_BUNDLE - 1) / MAX_CELLS_PER_BUNDLE);
        List<KV<Integer, T>> keyed = new ArrayList<>(xs.size());
        for (int i = 0; i < xs.size(); i++) {
            keyed.add(KV.of(i % bundles, xs.get(i))); // by position: a resumed sweep's cells have gaps in their indices
        }
        return p.apply("Cells", Create.of(keyed).withCoder(KvCoder.of(VarIntCoder.of(), coder)))
                .apply("Gather", GroupByKey.create())
                .apply("Ungroup", ParDo.of(new Ungroup<T>()))
                .setCoder(coder);
    }

    /** Each element of a group, on its own. */
    private static final class Ungroup<T> extends DoFn<KV<Integer, Iterable<T>>, T> {
        private static final long serialVersionUID = 1L;

        @ProcessElement
        public void process(@Element KV<Integer, Iterable<T>> group, OutputReceiver<T> out) {
            group.getValue().forEach(out::output);
        }
    }
}
