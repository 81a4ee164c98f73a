package io.servesim.fidelity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.servesim.engine.FrontEndSettings;
import io.servesim.testing.RepoFiles;
import org.junit.jupiter.api.Test;

/** The front end's fitted ingress is the fit on the shipped study, reproducible from the repository. */
class IngressFitTest {
    @Test
    void theShippedIngressIsTheFitOnTheStudyAndHoldsOutOfSample() {
        IngressFit fit = IngressFit.fit(RepoFiles.data("validation/sim2real-trainval"));
        assertEquals(13, fit.experiments().size());
        // measured: 11.48 us per prompt token on all 13; leaving one out 10.73-12.38, held-out median |TTFT error| 4.4%
        assertEquals(FrontEndSettings.FITTED_TOKENIZE_US_PER_TOKEN, fit.usPerToken(), 0.005);
        assertTrue(fit.leaveOneOutMin() > 10.2 && fit.leaveOneOutMax() < 12.9, fit.leaveOneOutMin() + "-" + fit.leaveOneOutMax());
        assertTrue(fit.heldOutMedianError() < 0.05, "held-out median " + fit.heldOutMedianError());
    }

    @Test
    void theLeastSquaresOfTheRelativeErrorSolvesByHand() {
        // two experiments, TTFT = a + b x, real R: (a, b, R) = (10, 1, 20) and (30, 2, 40):
        // x = [(1/20)(1 - 10/20) + (2/40)(1 - 30/40)] / [(1/20)^2 + (2/40)^2] = (0.025 + 0.0125) / 0.005 = 7.5
        double[] a = {10, 30};
        double[] b = {1, 2};
        double[] real = {20, 40};
        assertEquals(7.5, IngressFit.leastSquares(a, b, real, -1), 1e-12);
        // leaving the second out, the first alone: (1 - 0.5) / (1/20) = 10 = (20 - 10) / 1, its exact fit
        assertEquals(10.0, IngressFit.leastSquares(a, b, real, 1), 1e-12);
    }
}
