package io.servesim.policy.autoscale;

import io.servesim.cluster.AutoScalePolicy;
import io.servesim.cluster.ScaleSignals;
import io.servesim.policy.PolicyContext;
import io.servesim.policy.PolicySpec;

/**
 * {@code oscillator}: the pathological autoscaler (BLIS macro plan, F.3 and PR 11: inference-sim/inference-sim
 * @ 7d4e8bac, {@code docs/plans/2026-02-11-macro-implementation-plan-v2.md}), to show what flapping costs
 * and that oscillation detection works: it asks for one replica more at the 1st, 3rd, 5th ... check and
 * one fewer at the others, whatever the load. No params.
 */
final class Oscillator implements AutoScalePolicy {
    private boolean up = true;

    private Oscillator() {
    }

    static AutoScalePolicy create(PolicySpec spec, PolicyContext ctx) {
        return new Oscillator();
    }

    @Override
    public int desiredReplicas(ScaleSignals s) {
        int desired = up ? s.currentReplicas() + 1 : s.currentReplicas() - 1;
        up = !up;
        return desired;
    }

    @Override
    public String explain(ScaleSignals s, int desired) {
        return "oscillates whatever the load: " + (desired > s.currentReplicas() ? "+1" : "-1") + " at this check";
    }
}
