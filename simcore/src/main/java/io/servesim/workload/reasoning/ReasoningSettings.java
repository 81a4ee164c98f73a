package io.servesim.workload.reasoning;

import io.servesim.config.Durations;
import io.servesim.config.Setting;
import io.servesim.config.ValueType;
import io.servesim.workload.ClientSettings;
import io.servesim.workload.WorkloadSettings;
import java.util.List;

/**
 * A reasoning client's settings ({@code workload.clients[].reasoning}), BLIS workload spec v2 {@code ReasoningSpec} and
 * {@code MultiTurnSpec} ({@code sim/workload/spec.go} at inference-sim/inference-sim@f90a1e3a); its
 * {@code reason_ratio_distribution} is a distribution block of integer percentages ({@code dist.DistributionSettings}).
 */
public final class ReasoningSettings {
    /** Rounds of a session at most: a session's prompts grow with its rounds, and each round is a request. */
    public static final int MAX_ROUNDS = 10_000;

    public static final Setting<Long> MAX_ROUNDS_SETTING = Setting.derived("workload.clients[].reasoning.multi_turn.max_rounds",
            ValueType.integer(1, MAX_ROUNDS).in("rounds", "a session of more rounds than ten thousand is no conversation"),
            "required in a multi_turn block", "Rounds of every session, the first included (BLIS's max_rounds).");
    public static final Setting<Long> THINK_TIME_US = Setting.of("workload.clients[].reasoning.multi_turn.think_time_us",
            ValueType.duration(0, Durations.MAX_US).bareMicros().because(WorkloadSettings.SIMULATED_TIME), 0L,
            "The user's think time: a round is sent this long after the previous round's response reached the client.");
    public static final Setting<String> CONTEXT_GROWTH = Setting.of("workload.clients[].reasoning.multi_turn.context_growth",
            ValueType.choice(ClientSettings.CONTEXT_GROWTH), "none",
            "accumulate: a round's prompt is the previous round's prompt and answer (its reasoning tokens dropped, as"
                    + " reasoning models' chat templates do), then a new message; none: a fresh prompt each round (BLIS's"
                    + " default, an omitted context_growth).");
    public static final Setting<Boolean> SINGLE_SESSION = Setting.of("workload.clients[].reasoning.multi_turn.single_session",
            ValueType.bool(), false,
            "true: the client has one session (its arrival process fires once); false: every arrival starts a session.");

    /** Every reasoning setting, in documentation order. */
    public static final List<Setting<?>> ALL = List.of(MAX_ROUNDS_SETTING, THINK_TIME_US, CONTEXT_GROWTH, SINGLE_SESSION);

    private ReasoningSettings() {
    }
}
