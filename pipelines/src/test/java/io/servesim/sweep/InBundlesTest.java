package io.servesim.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.stream.IntStream;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.coders.VarIntCoder;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.ParDo;
import org.junit.jupiter.api.Test;

/**
 * On the DirectRunner as a sweep configures it, {@link SweepPipeline#inBundles} hands a DoFn the
 * elements in as few bundles as hold at most 64 each (the cells then run side by side on the cell
 * threads, with an idle tail only at those few boundaries); a {@code Reshuffle} in its place gave
 * 12 elements 3 bundles here (4, 4, 4) and the quickstart's 12 cells 6, and a plain {@code Create}
 * also 3 (4, 4, 4; 64 elements as 21, 10, 22, 11).
 */
class InBundlesTest {
    /** Sizes of the bundles {@link RecordBundles} saw, and the elements, per case. */
    private static final ConcurrentHashMap<String, ConcurrentLinkedQueue<Integer>> BUNDLES = new ConcurrentHashMap<>();
    private static final ConcurrentHashMap<String, Set<Integer>> SEEN = new ConcurrentHashMap<>();

    /** Records each bundle's size. */
    private static final class RecordBundles extends DoFn<Integer, Void> {
        private final String key;
        private transient int size;

        RecordBundles(String key) {
            this.key = key;
        }

        @StartBundle
        public void start() {
            size = 0;
        }

        @ProcessElement
        public void process(@Element Integer x) {
            size++;
            SEEN.computeIfAbsent(key, k -> Collections.synchronizedSet(new TreeSet<>())).add(x);
        }

        @FinishBundle
        public void finish() {
            if (size > 0) {
                BUNDLES.computeIfAbsent(key, k -> new ConcurrentLinkedQueue<>()).add(size);
            }
        }
    }

    /** 12 elements: one bundle. 64: one. 200: ceil(200 / 64) = 4 bundles of 200 / 4 = 50 (position mod 4). */
    @Test
    void elementsArriveInFewBundlesOfAtMost64() {
        assertEquals(List.of(12), bundleSizes(12));
        assertEquals(List.of(64), bundleSizes(64));
        assertEquals(List.of(50, 50, 50, 50), bundleSizes(200));
    }

    /**
     * A resumed sweep's cells: 100 left of 200, every other one (indices 0, 2, .., 198). Keyed by
     * position, they make 2 bundles of 50; keyed by index mod 2 they would all share one bundle of 100.
     */
    @Test
    void aResumedSweepsCellsStillFillBundlesOfAtMost64() {
        assertEquals(List.of(50, 50), bundleSizes("every-other", IntStream.range(0, 100).map(i -> 2 * i).boxed().toList()));
    }

    private static List<Integer> bundleSizes(int n) {
        return bundleSizes("n" + n, IntStream.range(0, n).boxed().toList());
    }

    private static List<Integer> bundleSizes(String key, List<Integer> xs) {
        Pipeline p = Pipeline.create(RunnerChoice.of(RunnerChoice.Runner.direct, 2, null, null).options("in-bundles"));
        SweepPipeline.inBundles(p, xs, VarIntCoder.of()).apply(ParDo.of(new RecordBundles(key)));
        p.run().waitUntilFinish();
        assertEquals(new TreeSet<>(xs), SEEN.get(key), "every element arrives once");
        List<Integer> sizes = new ArrayList<>(BUNDLES.get(key));
        Collections.sort(sizes);
        return sizes;
    }
}
