package io.servesim.latency;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class BlackboxModelTest {
    // a0=100, a1=0.5, a2=7.4, b0=1000, b1=2.5, b2=10.25 (us)
    private final BlackboxModel model = new BlackboxModel(new BlackboxCoefficients(100, 0.5, 7.4, 1000, 2.5, 10.25), "test");

    @Test
    void stepTimeIsInterceptPlusPrefillAndDecodeTerms() {
        StepShape step = new StepShape();
        step.addPrefill(60, 500); // context does not matter to the blackbox model
        step.addPrefill(40, 0);
        step.addDecode(100);
        step.addDecode(2000);
        step.addDecode(7);
        // 1000 + 2.5 x (60 + 40) + 10.25 x 3 = 1000 + 250 + 30.75 = 1280.75 -> 1281
        assertEquals(1281, model.stepTimeUs(step));
    }

    @Test
    void emptyStepCostsTheIntercept() {
        assertEquals(1000, model.stepTimeUs(new StepShape()));
    }

    @Test
    void stepTimeIsAtLeastOneMicrosecond() {
        BlackboxModel zero = new BlackboxModel(new BlackboxCoefficients(0, 0, 0, 0.4, 0, 0), "zero");
        // 0.4 rounds to 0, floored at 1
        assertEquals(1, zero.stepTimeUs(new StepShape()));
    }

    @Test
    void queueingDelayAndOutputTokenProcessing() {
        // 100 + 0.5 x 200 = 200
        assertEquals(200, model.queueingDelayUs(200));
        // 100 + 0.5 x 0 = 100
        assertEquals(100, model.queueingDelayUs(0));
        // round(7.4) = 7
        assertEquals(7, model.outputTokenProcessingUs());
    }

    @Test
    void trainedLlama8bH100Tp1Coefficients() {
        BlackboxCoefficients c = CoefficientTable.builtIn().find("meta-llama/llama-3.1-8b-instruct", "H100", 1)
                .orElseThrow().coefficients();
        BlackboxModel trained = new BlackboxModel(c, "llama");
        StepShape step = new StepShape();
        step.addPrefill(512, 0);
        for (int i = 0; i < 10; i++) {
            step.addDecode(1000);
        }
        // b0 6472.0076 + b1 19.79721387814611 x 512 (= 10136.1735) + b2 304.4021040302657 x 10 (= 3044.0210)
        // = 19652.2021 -> 19652
        assertEquals(19652, trained.stepTimeUs(step));
        // a0 10326.268 + a1 0 x 3000 -> 10326; a2 = 0
        assertEquals(10326, trained.queueingDelayUs(3000));
        assertEquals(0, trained.outputTokenProcessingUs());
    }
}
