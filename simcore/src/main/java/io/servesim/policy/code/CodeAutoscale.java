package io.servesim.policy.code;

import io.servesim.cluster.AutoScalePolicy;
import io.servesim.cluster.ScaleSignals;
import io.servesim.policy.api.AutoscalePolicy;
import io.servesim.policy.api.ScaleView;
import java.util.ArrayList;
import java.util.List;

/** {@code autoscale: code}: an {@link AutoscalePolicy} given as source, seeing {@link ScaleSignals} as a {@link ScaleView}. */
final class CodeAutoscale implements AutoScalePolicy {
    private final Loaded<AutoscalePolicy> code;
    /** The view of the last check, handed to {@link #explain} as the API promises (the same signals). */
    private ScaleSignals lastSignals;
    private ScaleView lastView;

    CodeAutoscale(Loaded<AutoscalePolicy> code) {
        this.code = code;
    }

    @Override
    public int desiredReplicas(ScaleSignals s) {
        ScaleView v = view(s);
        int desired;
        code.budget().enter();
        try {
            desired = code.policy().desiredReplicas(v);
        } catch (Throwable t) {
            throw code.budget().failed("desiredReplicas", t, code.file());
        }
        code.budget().exit("desiredReplicas");
        return desired;
    }

    @Override
    public String explain(ScaleSignals s, int desired) {
        String why;
        code.budget().enter();
        try {
            why = code.policy().explain(view(s), desired);
        } catch (Throwable t) {
            throw code.budget().failed("explain", t, code.file());
        }
        code.budget().exit("explain");
        return code.file() + " asked for " + desired + (why == null || why.isBlank() ? "" : ": " + why);
    }

    private ScaleView view(ScaleSignals s) {
        if (s != lastSignals) {
            List<Double> recent = new ArrayList<>(s.recentLoad().length);
            for (double x : s.recentLoad()) {
                recent.add(x);
            }
            lastView = new ScaleView(s.nowUs(), s.currentReplicas(), s.readyReplicas(), s.minReplicas(), s.maxReplicas(),
                    s.avgQueueDepth(), s.avgKvUtilization(), s.avgInFlight(), s.requestRatePerS(), s.sloAttainment(),
                    s.sinceLastScaleUs(), recent);
            lastSignals = s;
        }
        return lastView;
    }
}
