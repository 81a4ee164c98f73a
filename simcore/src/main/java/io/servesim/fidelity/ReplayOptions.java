package io.servesim.fidelity;

import io.servesim.latency.BlackboxCoefficients;
import io.servesim.latency.LatencyKind;
import java.nio.file.Path;

/**
 * How to replay a real run.
 *
 * @param latencyKind        a latency model kind that names one model ({@link LatencyKind#concreteNames()})
 * @param hardwareOrNull     GPU name for runs whose {@code meta.json} has no {@code hardware.device_name}
 * @param modelOrNull        model id or config.json path to simulate instead of {@code meta.json model}
 *                           (e.g. a bundled id with the same architecture)
 * @param coefficientsOrNull blackbox coefficients (from {@code servesim calibrate}); null looks up
 *                           trained ones for (model, GPU, TP)
 * @param profileDirOrNull   an LLMServingSim-format profile directory for {@code profiled}; null uses
 *                           a bundled profile for (model, GPU, TP)
 */
public record ReplayOptions(String latencyKind, String hardwareOrNull, String modelOrNull,
                            BlackboxCoefficients coefficientsOrNull, Path profileDirOrNull) {
    /** The measured profile, no overrides. */
    public static ReplayOptions profiled() {
        return new ReplayOptions(LatencyKind.PROFILED.configName(), null, null, null, null);
    }

    /** Blackbox with explicit coefficients. */
    public static ReplayOptions blackbox(BlackboxCoefficients coefficients) {
        return new ReplayOptions(LatencyKind.BLACKBOX.configName(), null, null, coefficients, null);
    }

    public ReplayOptions withHardware(String hardware) {
        return new ReplayOptions(latencyKind, hardware, modelOrNull, coefficientsOrNull, profileDirOrNull);
    }
}
