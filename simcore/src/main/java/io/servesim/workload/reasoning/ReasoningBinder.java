package io.servesim.workload.reasoning;

import io.servesim.config.ConfigNode;
import io.servesim.workload.dist.DistributionBinder;
import io.servesim.workload.dist.DistributionBinder.Kind;
import io.servesim.workload.dist.DistributionSpec;
import java.nio.file.Path;

/**
 * Binds a client's {@code reasoning} block ({@link ReasoningSettings}): {@code reason_ratio_distribution} is required
 * (integer percentages in [0, 100]); {@code multi_turn} is optional, and within it {@code max_rounds} is required.
 */
public final class ReasoningBinder {
    private ReasoningBinder() {
    }

    /** The reasoning block at {@code n} (present), or null when invalid (problems recorded). */
    public static ReasoningSpec bind(ConfigNode n, Path baseDir) {
        ConfigNode ratio = n.child("reason_ratio_distribution");
        DistributionSpec percent = null;
        if (!ratio.present()) {
            n.problem(n.pathOf("reason_ratio_distribution"), "required: the share of each output that is reasoning, in"
                    + " integer percent, e.g. {type: uniform, params: {min: 60, max: 90}}");
        } else {
            percent = DistributionBinder.bind(ratio, Kind.PERCENT, baseDir);
        }
        ConfigNode m = n.child("multi_turn");
        ReasoningSpec.MultiTurn multiTurn = m.present() ? multiTurn(m) : null;
        n.finish();
        return percent == null || m.present() && multiTurn == null ? null : new ReasoningSpec(percent, multiTurn);
    }

    private static ReasoningSpec.MultiTurn multiTurn(ConfigNode m) {
        Long rounds = m.get(ReasoningSettings.MAX_ROUNDS_SETTING);
        if (!m.has(ReasoningSettings.MAX_ROUNDS_SETTING.key())) {
            m.problem(m.pathOf(ReasoningSettings.MAX_ROUNDS_SETTING.key()), "required in a multi_turn block: rounds per"
                    + " session, an integer in [1, " + ReasoningSettings.MAX_ROUNDS + "]");
        }
        long thinkUs = m.get(ReasoningSettings.THINK_TIME_US);
        String growth = m.get(ReasoningSettings.CONTEXT_GROWTH);
        boolean single = m.get(ReasoningSettings.SINGLE_SESSION);
        m.finish();
        return rounds == null ? null
                : new ReasoningSpec.MultiTurn(Math.toIntExact(rounds), thinkUs, "accumulate".equals(growth), single);
    }
}
