package io.servesim.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class RankAgreementTest {
    private static final double EPS = 1e-9;

    @Test
    void perfectlyConcordantValuesScoreOne() {
        // Any increasing transform keeps the order: all 6 pairs concordant, d = 0 for every rank.
        double[] sim = {1, 2, 3, 4};
        double[] real = {10, 40, 90, 160};
        assertEquals(1.0, RankAgreement.spearmanRho(sim, real), EPS);
        assertEquals(1.0, RankAgreement.kendallTauB(sim, real), EPS);
        assertEquals(1.0, RankAgreement.pairwiseAccuracy(sim, real), EPS);
    }

    @Test
    void reversedValuesScoreMinusOneAndNoPairRight() {
        // Ranks 1..4 against 4..1: sum d^2 = 9 + 1 + 1 + 9 = 20, rho = 1 - 6 * 20 / (4 * 15) = -1; all 6 pairs discordant.
        double[] sim = {1, 2, 3, 4};
        double[] real = {4, 3, 2, 1};
        assertEquals(-1.0, RankAgreement.spearmanRho(sim, real), EPS);
        assertEquals(-1.0, RankAgreement.kendallTauB(sim, real), EPS);
        assertEquals(0.0, RankAgreement.pairwiseAccuracy(sim, real), EPS);
    }

    @Test
    void oneAdjacentSwapOfFive() {
        // Ranks 1 2 4 3 5 against 1 2 3 4 5: sum d^2 = 2, rho = 1 - 6 * 2 / (5 * 24) = 0.9;
        // 9 of 10 pairs concordant: tau = (9 - 1) / 10 = 0.8, accuracy 0.9.
        double[] sim = {1, 2, 4, 3, 5};
        double[] real = {1, 2, 3, 4, 5};
        assertEquals(0.9, RankAgreement.spearmanRho(sim, real), EPS);
        assertEquals(0.8, RankAgreement.kendallTauB(sim, real), EPS);
        assertEquals(0.9, RankAgreement.pairwiseAccuracy(sim, real), EPS);
    }

    @Test
    void tiesGetAverageRanksAndTauB() {
        // sim = 1 2 2 3, real = 1 3 2 4. Pairs (i,j): (1,2) (1,3) (1,4) (2,4) (3,4) concordant: C = 5, D = 0;
        // (2,3) is tied in sim only: Ts = 1, Tr = 0. tau-b = 5 / sqrt((5 + 1) * 5) = 5 / sqrt(30) = 0.9128709.
        // Average ranks: sim 1 2.5 2.5 4, real 1 3 2 4; deviations from 2.5: sim -1.5 0 0 1.5, real -1.5 0.5 -0.5 1.5;
        // rho = 4.5 / sqrt(4.5 * 5) = 0.9486833. Accuracy: (2,3) tied in sim only disagrees: 5 / 6.
        double[] sim = {1, 2, 2, 3};
        double[] real = {1, 3, 2, 4};
        assertEquals(5 / Math.sqrt(30), RankAgreement.kendallTauB(sim, real), EPS);
        assertEquals(4.5 / Math.sqrt(22.5), RankAgreement.spearmanRho(sim, real), EPS);
        assertEquals(5 / 6.0, RankAgreement.pairwiseAccuracy(sim, real), EPS);
    }

    @Test
    void aPairTiedOnBothSidesAgrees() {
        // Pairs: (1,2) tied on both sides agrees; (1,3) and (2,3) concordant: accuracy 3 / 3.
        // tau-b: C = 2, D = 0, Ts = Tr = 0 (the doubly tied pair counts nowhere): 2 / sqrt(2 * 2) = 1.
        double[] sim = {5, 5, 7};
        double[] real = {1, 1, 2};
        assertEquals(1.0, RankAgreement.pairwiseAccuracy(sim, real), EPS);
        assertEquals(1.0, RankAgreement.kendallTauB(sim, real), EPS);
    }

    @Test
    void mapeIsRelativeToReal() {
        // |110 - 100| / 100 = 10%, |45 - 50| / 50 = 10%, |60 - 40| / 40 = 50%: mean 70 / 3 = 23.33%.
        assertEquals(70 / 3.0, RankAgreement.mapePct(new double[] {110, 45, 60}, new double[] {100, 50, 40}), EPS);
        assertTrue(Double.isNaN(RankAgreement.mapePct(new double[] {1, 2}, new double[] {0, 2})), "real 0: undefined");
    }

    @Test
    void undefinedStatisticsAreNaN() {
        double[] one = {1};
        assertTrue(Double.isNaN(RankAgreement.spearmanRho(one, one)));
        assertTrue(Double.isNaN(RankAgreement.kendallTauB(one, one)));
        assertTrue(Double.isNaN(RankAgreement.pairwiseAccuracy(one, one)));
        assertEquals(0.0, RankAgreement.mapePct(one, one), EPS);
        double[] constant = {3, 3, 3};
        double[] varying = {1, 2, 3};
        assertTrue(Double.isNaN(RankAgreement.spearmanRho(constant, varying)), "no variance in sim");
        assertTrue(Double.isNaN(RankAgreement.kendallTauB(constant, varying)), "every pair tied in sim");
        assertEquals(0.0, RankAgreement.pairwiseAccuracy(constant, varying), EPS);
    }

    @Test
    void axisLabelsMatchByNumericValue() {
        assertEquals("20", AxisLabel.normalise(" 20.0 "));
        assertEquals("20", AxisLabel.normalise("2e1"));
        assertEquals("0.5", AxisLabel.normalise("0.50"));
        assertEquals("0", AxisLabel.normalise("-0.0"));
        assertEquals("least-loaded", AxisLabel.normalise(" least-loaded"));
        assertEquals("H100", AxisLabel.normalise("H100"));
    }
}
