package io.servesim.disagg;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.servesim.metrics.RunSummary;
import org.junit.jupiter.api.Test;

/**
 * The summary's {@code latency_calibration_note} under P/D ({@code Simulation.calibrationNote}): each pool runs its own
 * GPU's latency model, so the note names every pool whose GPU the roofline's constants were not fitted on (H100 is in
 * the fit; L40S, a bundled row without measurements, is not), prefixed with the pool; an aggregated run's note is the
 * model's own, unprefixed.
 */
class PdCalibrationNoteTest {
    private static final String[] ROOFLINE = {"deployment.latency_model=roofline", "workload.num_requests=30"};

    @Test
    void anUncalibratedDecodePoolIsNamedAloneBesideACalibratedPrefillPool() {
        RunSummary s = run("deployment.pd.decode.hardware=L40S");
        assertEquals("uncalibrated", s.text("latency_calibration"));
        assertEquals("decode pool " + aggregatedNote("L40S"), s.text("latency_calibration_note"));
        assertFalse(s.text("latency_calibration_note").contains("prefill"), s.text("latency_calibration_note"));
    }

    @Test
    void anUncalibratedPrefillPoolIsNamedAloneToo() {
        RunSummary s = run("deployment.pd.prefill.hardware=L40S");
        assertEquals("prefill pool " + aggregatedNote("L40S"), s.text("latency_calibration_note"));
    }

    @Test
    void bothPoolsUncalibratedAreBothNamedPrefillFirst() {
        RunSummary s = run("deployment.hardware=L40S");
        String note = aggregatedNote("L40S");
        assertEquals("prefill pool " + note + "; decode pool " + note, s.text("latency_calibration_note"));
    }

    @Test
    void calibratedPoolsLeaveNoNote() {
        RunSummary s = run();
        assertEquals("calibrated", s.text("latency_calibration"));
        assertEquals("", s.text("latency_calibration_note"));
    }

    @Test
    void anAggregatedRunKeepsTheModelsNoteUnprefixed() {
        String note = aggregatedNote("L40S");
        assertTrue(note.startsWith("uncalibrated: no GEMM or engine-step measurements of L40S were used in fitting"), note);
        assertEquals("", aggregatedNote("H100"));
    }

    private static RunSummary run(String... overrides) {
        String[] all = new String[ROOFLINE.length + overrides.length];
        System.arraycopy(ROOFLINE, 0, all, 0, ROOFLINE.length);
        System.arraycopy(overrides, 0, all, ROOFLINE.length, overrides.length);
        return PdRuns.run(PdRuns.BASE, all).summary();
    }

    /** The note of the aggregated fleet of 2 replicas on {@code gpu}. */
    private static String aggregatedNote(String gpu) {
        return run("deployment.architecture=aggregated", "deployment.pd=null", "deployment.instances=2",
                "policies.routing=least-loaded", "deployment.hardware=" + gpu).text("latency_calibration_note");
    }
}
