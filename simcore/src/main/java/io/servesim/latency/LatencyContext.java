package io.servesim.latency;

import io.servesim.config.ConfigException;
import java.util.Optional;

/**
 * A {@link LatencySpec} after the checks every kind shares ({@link LatencyModels#resolve}): the TP
 * range, the GPU and model looked up. What a {@link LatencyKind}'s resolver builds its model from.
 *
 * @param kind     the kind chosen
 * @param spec     the spec as given
 * @param path     config path of the spec (e.g. {@code deployment}), prefixed to every error path
 * @param kindKey  the config key or flag that chooses the model ({@code deployment.latency_model},
 *                 {@code --latency-model})
 * @param gpu      the GPU named, or null
 * @param arch     the architecture of a bundled model or a config.json, or null
 * @param modelKey the id to look trained coefficients up under, or null when no model is named
 */
record LatencyContext(LatencyKind kind, LatencySpec spec, String path, String kindKey, GpuSpec gpu,
                      ModelArchitecture arch, String modelKey) {

    /**
     * Trained blackbox coefficients of the (model, GPU, TP) triple, if both are named and trained; for a model without
     * an entry of its own, those of a bundled model of the same architecture on that GPU and TP
     * ({@link CoefficientTable#findByArchitecture}: Mixtral-8x7B-v0.1 takes Mixtral-8x7B-Instruct-v0.1's), whose
     * {@link CoefficientTable.Entry#modelId()} then differs from {@link #modelKey()}.
     */
    Optional<CoefficientTable.Entry> trained() {
        if (modelKey == null || gpu == null) {
            return Optional.empty();
        }
        Optional<CoefficientTable.Entry> own = CoefficientTable.builtIn().find(modelKey, gpu.name(), spec.tp());
        return own.isPresent() || arch == null ? own : CoefficientTable.builtIn().findByArchitecture(arch, gpu.name(), spec.tp());
    }

    /** How to choose {@code kind}: {@code deployment.latency_model: roofline}, {@code --latency-model roofline}. */
    String choice(LatencyKind other) {
        return LatencyModels.choice(kindKey, other.configName());
    }

    /** Refuses coefficients given to a kind other than blackbox. */
    void rejectCoefficients() {
        if (spec.coefficients() != null) {
            throw new ConfigException(path + ".coefficients", "explicit coefficients belong to the blackbox model, but "
                    + choice(kind) + " is given; remove them or use " + choice(LatencyKind.BLACKBOX));
        }
    }
}
