package io.servesim.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.servesim.cli.Main;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Sweep axes over the autoscaler: its bounds ({@code autoscaling.max}) and its policy's parameters, read back from cells/. */
class AutoscalerAxesTest {
    @Test
    void axesOverTheBoundAndAPolicyParameterReachEveryCell(@TempDir Path tmp) throws Exception {
        Path sweep = TestSweeps.write(tmp, "axes", """
                name: axes
                base: %s
                axes:
                  - {name: max_replicas, path: autoscaling.max, values: [1, 2, 4]}
                  - {name: scale_up, path: policies.autoscale.params.scale_up, values: [8, 1000]}
                seeds: [1]
                outputs: {requests: false, sessions: false}
                """.formatted(ScalingDatasetTest.AUTOSCALED));
        Path out = tmp.resolve("out");
        assertEquals(0, Main.execute("sweep", sweep.toString(), "--output", out.toString()));
        String cells = TestSweeps.glob(out, "cells");
        assertEquals(6, TestSweeps.scalar("SELECT count(*) FROM " + cells));
        assertEquals(0, TestSweeps.scalar("SELECT count(*) FROM " + TestSweeps.glob(out, "errors")));
        // the bound holds in every cell, and a low threshold reaches it
        assertEquals(0, TestSweeps.scalar("SELECT count(*) FROM " + cells + " WHERE peak_replicas > max_replicas::INT"));
        assertEquals(3, TestSweeps.scalar("SELECT count(*) FROM " + cells
                + " WHERE scale_up = '8' AND peak_replicas = max_replicas::INT"));
        // max 1: nothing can be added, whatever the threshold (the policy's extra replicas are clamped)
        assertEquals(0, TestSweeps.scalar("SELECT sum(scale_ups) FROM " + cells + " WHERE max_replicas = '1'"));
        assertEquals(1, TestSweeps.scalar("SELECT count(*) FROM " + cells
                + " WHERE max_replicas = '1' AND scale_up = '8' AND clamped_decisions > 0"));
        // a threshold no load reaches never scales up: one replica throughout, for every bound
        assertEquals(3, TestSweeps.scalar("SELECT count(*) FROM " + cells
                + " WHERE scale_up = '1000' AND scale_ups = 0 AND peak_replicas = 1 AND mean_replicas = 1"));
        // at max 4, the threshold of 8 in flight scales up and holds more replicas on average than max 2
        assertEquals(1, TestSweeps.scalar("SELECT ((SELECT mean_replicas FROM " + cells + " WHERE max_replicas = '4' AND"
                + " scale_up = '8') > (SELECT mean_replicas FROM " + cells + " WHERE max_replicas = '2' AND scale_up = '8'))::INT"));
    }

    @Test
    void theAutoscalingExampleSweepValidatesWithItsFixedFleets() {
        SweepPlan plan = SweepPlan.prepare(SweepFile.load(Path.of("..", "sweeps", "autoscaling.yaml")));
        assertEquals(5, plan.cells().size());
    }
}
