package io.servesim.latency;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * The latency model kinds ({@code deployment.latency_model}, {@code --latency-model}), each naming
 * the resolver that builds its model from a checked {@link LatencyContext} (as the Caffeine
 * simulator's {@code parser/TraceFormat} names each reader's constructor). Valid names in messages
 * and help come from {@link #names()}, in declaration order.
 *
 * <p>To add a kind: write the {@link LatencyModel} (copy {@link BlackboxModel}, the smallest) with a
 * {@code static ResolvedLatency resolve(LatencyContext c)} that checks what the kind needs (as
 * {@link RooflineModel#resolve} does) and add one constant here, e.g.
 * {@code SPLITWISE("splitwise", SplitwiseModel::resolve)}. {@code LatencyKindContractTest} then
 * resolves it for a bundled model and GPU and checks its step times.
 */
public enum LatencyKind {
    /**
     * The default: blackbox with explicit or trained coefficients when there are any (as BLIS does),
     * else the roofline model.
     */
    AUTO("auto", LatencyKind::auto),
    /** BLIS's blackbox model: explicit coefficients, else the trained ones of the (model, GPU, TP) triple. */
    BLACKBOX("blackbox", BlackboxModel::resolve),
    /** The analytical roofline model of a bundled model (or config.json) on a GPU. */
    ROOFLINE("roofline", RooflineModel::resolve),
    /** A measured profile bundled for the (model, GPU, TP) triple ({@link ProfileCatalog}). */
    PROFILED("profiled", ProfiledModel::resolve);

    /** Builds the model of one kind; every problem is a {@code ConfigException} at the spec's paths. */
    @FunctionalInterface
    interface Resolver {
        ResolvedLatency resolve(LatencyContext context);
    }

    private final String configName;
    private final Resolver resolver;

    LatencyKind(String configName, Resolver resolver) {
        this.configName = configName;
        this.resolver = resolver;
    }

    /** The name in configs and on the command line. */
    public String configName() {
        return configName;
    }

    /** Whether the kind names one model; {@code auto} chooses between two. */
    public boolean isConcrete() {
        return this != AUTO;
    }

    ResolvedLatency resolve(LatencyContext context) {
        return resolver.resolve(context);
    }

    /** Every kind's name, in declaration order. */
    public static List<String> names() {
        return Arrays.stream(values()).map(LatencyKind::configName).toList();
    }

    /** The names of the kinds that name one model ({@link #isConcrete()}), in declaration order. */
    public static List<String> concreteNames() {
        return Arrays.stream(values()).filter(LatencyKind::isConcrete).map(LatencyKind::configName).toList();
    }

    /** The kind called {@code name} (case-insensitive), if any. */
    public static Optional<LatencyKind> find(String name) {
        return Arrays.stream(values()).filter(k -> k.configName.equalsIgnoreCase(name)).findFirst();
    }

    /**
     * Blackbox with explicit or trained coefficients, else the roofline; with fp8 weights asked for or an fp8 KV cache
     * the roofline, as trained coefficients were measured with the checkpoint's weights and the cache in its dtype.
     */
    private static ResolvedLatency auto(LatencyContext c) {
        boolean blackbox = !c.spec().changesPrecision() && (c.spec().coefficients() != null || c.trained().isPresent());
        return blackbox ? BlackboxModel.resolve(c) : RooflineModel.resolve(c);
    }
}
