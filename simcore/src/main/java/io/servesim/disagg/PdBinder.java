package io.servesim.disagg;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.servesim.config.ConfigNode;
import io.servesim.config.Setting;
import io.servesim.engine.EngineConfig;
import io.servesim.engine.EngineSettings;
import io.servesim.latency.GpuCatalog;
import io.servesim.latency.LatencyKind;
import io.servesim.latency.LatencySpec;
import java.util.Objects;
import java.util.Optional;

/**
 * Binds {@code deployment.architecture} and {@code deployment.pd} through {@link PdSettings}: problems go to the
 * config's problem list with their paths. In {@code aggregated} (the default) {@code deployment.pd} is refused
 * rather than ignored; in {@code pd} the pools' sizes replace {@code deployment.instances}, which is
 * refused, as are autoscaling and on-demand observability (checked by the run's loader, which sees them).
 */
public final class PdBinder {
    /** {@code deployment.pd.decode_routing}: the decode pool's router, a name or {@code {name, params}}. */
    public static final String DECODE_ROUTING_KEY = "decode_routing";

    private PdBinder() {
    }

    /**
     * The P/D spec of {@code deployment} (null for {@code aggregated}).
     *
     * @param deployment the {@code deployment:} node (its keys {@code architecture} and {@code pd} are read here)
     * @param engineRaw  the top-level {@code engine:} mapping (raw; a pool's {@code engine:} keys are laid over it)
     * @param latency    the deployment's model, GPU, TP and latency model (each pool's defaults)
     */
    public static PdSpec bind(ConfigNode deployment, JsonNode engineRaw, LatencySpec latency) {
        Optional<String> chosen = deployment.valid(PdSettings.ARCHITECTURE); // empty: unknown (reported)
        String architecture = chosen.orElse(PdSettings.ARCHITECTURE.defaultValue());
        ConfigNode pd = deployment.child("pd");
        if (!"pd".equals(architecture)) {
            // an unknown architecture is its own one problem: deployment.pd is then neither bound nor refused
            if (pd.present() && chosen.isPresent()) {
                deployment.problem(pd.path(), "only applies with deployment.architecture: pd (deployment.architecture is "
                        + architecture + "); set it to pd or remove " + pd.path());
            }
            return null;
        }
        if (deployment.has("instances")) {
            deployment.problem(deployment.pathOf("instances"), "not used with deployment.architecture: pd: the pools'"
                    + " sizes are deployment.pd.prefill.replicas and deployment.pd.decode.replicas; remove it");
        }
        PoolSpec prefill = pool(pd.child("prefill"), "prefill", PdSettings.PREFILL_REPLICAS, engineRaw, latency);
        PoolSpec decode = pool(pd.child("decode"), "decode", PdSettings.DECODE_REPLICAS, engineRaw, latency);
        PdDecider decider = PdDecider.of(pd.get(PdSettings.DECIDER));
        int threshold = pd.getInt(PdSettings.PREFIX_THRESHOLD_TOKENS);
        if (pd.has(PdSettings.PREFIX_THRESHOLD_TOKENS.key()) && decider != PdDecider.PREFIX_THRESHOLD) {
            pd.problem(pd.pathOf(PdSettings.PREFIX_THRESHOLD_TOKENS.key()), "only applies with deployment.pd.decider:"
                    + " prefix-threshold (the decider is " + decider.configName() + ")");
        }
        TransferSpec transfer = TransferSpec.bind(pd.child("transfer"));
        pd.declare(DECODE_ROUTING_KEY); // a routing policy: bound by the run's loader, which sees the policy registry
        pd.finish();
        return new PdSpec(prefill, decode, decider, threshold, transfer);
    }

    /** Whether the top-level {@code engine:} mapping binds without problems. */
    private static boolean valid(JsonNode engineRaw) {
        if (engineRaw == null || engineRaw.isMissingNode() || engineRaw.isNull()) {
            return true;
        }
        ObjectNode wrapper = JsonNodeFactory.instance.objectNode();
        wrapper.set("engine", engineRaw);
        ConfigNode probe = ConfigNode.root(wrapper);
        EngineConfig.bind(probe.child("engine"));
        return !probe.hasProblems();
    }

    private static PoolSpec pool(ConfigNode p, String name, Setting<Long> replicasSetting, JsonNode engineRaw, LatencySpec d) {
        int replicas = p.getInt(replicasSetting);
        String ownHardware = p.get(PdSettings.POOL_HARDWARE);
        String hardware = ownHardware != null ? ownHardware : d.hardware(); // null: a GPU coefficients leave unknown
        int tp = Objects.requireNonNullElse(p.get(PdSettings.POOL_TP), (long) d.tp()).intValue();
        String kind = Objects.requireNonNullElse(p.get(PdSettings.POOL_LATENCY_MODEL),
                d.kind() == null ? LatencyKind.AUTO.configName() : d.kind());
        boolean ownGpu = p.has("hardware") || p.has("tp") || p.has("latency_model");
        if (ownGpu && (d.coefficients() != null || d.profileDir() != null)) {
            String key = p.has("hardware") ? "hardware" : p.has("tp") ? "tp" : "latency_model";
            p.problem(p.pathOf(key), "conflicts with deployment." + (d.coefficients() != null ? "coefficients" : "profile")
                    + " (measured for the deployment's GPU and TP); remove one");
        }
        ConfigNode e = p.child("engine");
        ObjectNode merged = engineRaw != null && engineRaw.isObject() ? ((ObjectNode) engineRaw).deepCopy()
                : JsonNodeFactory.instance.objectNode();
        if (e.present()) {
            JsonNode ownKind = e.raw().path(EngineSettings.KIND.key());
            if (ownKind.isTextual()) {
                EngineConfig.keepSettingsOf(ownKind.asText(), merged);
            }
            e.raw().fields().forEachRemaining(f -> merged.set(f.getKey(), f.getValue()));
        }
        // a problem of an inherited key is the top-level engine section's (reported there): then only the pool's own keys are bound
        EngineConfig engine = EngineConfig.bind(valid(engineRaw) ? e.over(merged) : e);
        p.finish();
        if (p.has("hardware")) {
            GpuCatalog.checkName(d.gpus(), hardware, p);
        }
        LatencySpec spec = ownGpu ? new LatencySpec(kind, d.modelId(), hardware, tp, null, null, null, d.gpus(), d.kvCache(),
                d.quantization(), d.encoderUsPerToken(), d.epBalancedness()) : d;
        return new PoolSpec(name, replicas, spec, engine);
    }
}
