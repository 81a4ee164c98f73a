package io.servesim.run;

import io.servesim.config.ConfigException;
import io.servesim.disagg.PdSetup;
import io.servesim.disagg.PdSpec;
import io.servesim.disagg.PoolSetup;
import io.servesim.disagg.PoolSpec;
import io.servesim.latency.LatencyModels;
import io.servesim.latency.ResolvedLatency;
import io.servesim.workload.WorkloadSpec;
import java.util.ArrayList;
import java.util.List;

/**
 * Resolves a P/D deployment ({@code deployment.architecture: pd}): each pool is resolved as an
 * aggregated fleet of its own would be ({@link RunPlan#resolveEngine}: latency model of its GPU and
 * TP, KV capacity, vLLM's start-up checks, its CPU tier), every problem naming the pool's key
 * ({@link FleetKeys}: {@code deployment.pd.decode.engine.total_kv_blocks}, {@code deployment.pd.decode.replicas}).
 * Both pools must agree on the KV block size (a transfer moves whole blocks), the decode pool's
 * {@code max_model_len} must hold what the prefill pool's accepts, and the model's architecture must be
 * known (its KV bytes per token size the transfers). The KV links not given in {@code deployment.pd.transfer} are the
 * pools' GPUs' network ({@link io.servesim.disagg.TransferSpec#fromNetwork}).
 *
 * @param setup             the resolved deployment
 * @param decodeLatency     the decode pool's latency model as resolved (the run's headline model)
 * @param kvCapacitySource  where each pool's KV capacity came from
 */
record PdPlan(PdSetup setup, ResolvedLatency decodeLatency, String kvCapacitySource) {

    /** The resolved deployment, or null with {@code problems} naming why. */
    static PdPlan resolve(PdSpec spec, WorkloadSpec workload, double usdPerGpuHourOverride, long seed,
                          List<ConfigException.Problem> problems) {
        Pool prefill = pool(spec.prefill(), workload, seed, problems);
        Pool decode = pool(spec.decode(), workload, seed, problems);
        if (prefill == null || decode == null) {
            return null;
        }
        int pBlock = spec.prefill().engine().blockSizeTokens();
        int dBlock = spec.decode().engine().blockSizeTokens();
        if (pBlock != dBlock) {
            problems.add(new ConfigException.Problem(spec.decode().path() + ".engine." + spec.decode().engine().blockSizeKey(),
                    "must equal the prefill pool's " + spec.prefill().engine().blockSizeKey() + " " + pBlock
                    + " (KV moves in whole blocks), got " + dBlock + (spec.prefill().engine().isSglang()
                    == spec.decode().engine().isSglang() ? "" : "; an SGLang pool's page_size is 1 unless set, a vLLM"
                    + " pool's block_size 16")));
        }
        decodeHoldsWhatPrefillAccepts(prefill.setup().engine().maxModelLen(), decode.setup().engine().maxModelLen(), spec,
                problems);
        if (!problems.isEmpty()) {
            return null;
        }
        var transfer = spec.transfer();
        if (!transfer.isResolved()) {
            if (prefill.latency().gpuOrNull() == null || decode.latency().gpuOrNull() == null) {
                problems.add(new ConfigException.Problem("deployment.pd.transfer." + (transfer.bandwidthGbPerS() > 0
                        ? "latency" : "bandwidth"), "required: a pool's GPU is not known (blackbox coefficients without"
                        + " hardware), so the network its KV moves over cannot be taken from the GPU table"));
                return null;
            }
            transfer = transfer.fromNetwork(prefill.latency().gpuOrNull(), decode.latency().gpuOrNull());
        }
        double usdPerHour = price(spec.prefill(), usdPerGpuHourOverride) + price(spec.decode(), usdPerGpuHourOverride);
        PdSetup setup = new PdSetup(prefill.setup(), decode.setup(), spec.decider(), spec.thresholdTokens(),
                transfer, usdPerHour);
        return new PdPlan(setup, decode.latency(), "prefill: " + prefill.source() + "; decode: " + decode.source());
    }

    private record Pool(PoolSetup setup, ResolvedLatency latency, String source) {
    }

    /**
     * The decode pool's {@code max_model_len} must not be shorter than the prefill pool's (0: unlimited). Every request
     * ends on the decode pool, so the prefill pool's longer limit could only prefill prompts the decode pool then
     * refuses. vLLM's P/D benchmark starts both instances with one {@code --max-model-len}
     * ({@code benchmarks/disagg_benchmarks/disagg_performance_benchmark.sh}); its proxy checks nothing itself, so a
     * shorter decode limit there costs the prefill and then fails the request, which is what this refuses up front.
     */
    private static void decodeHoldsWhatPrefillAccepts(int prefillLen, int decodeLen, PdSpec spec,
                                                      List<ConfigException.Problem> problems) {
        if (decodeLen == 0 || (prefillLen != 0 && decodeLen >= prefillLen)) {
            return;
        }
        String p = spec.prefill().path() + ".engine.max_model_len";
        problems.add(new ConfigException.Problem(spec.decode().path() + ".engine.max_model_len", decodeLen
                + " is shorter than the prefill pool's " + (prefillLen == 0 ? "unlimited max_model_len" : "max_model_len "
                + prefillLen) + " (" + p + "): every request ends on the decode pool, which would refuse what the prefill"
                + " pool accepts after its prefill; give both pools one max_model_len (engine.max_model_len, or set " + p
                + " to " + decodeLen + ")"));
    }

    private static Pool pool(PoolSpec spec, WorkloadSpec workload, long seed, List<ConfigException.Problem> problems) {
        String path = spec.path();
        ResolvedLatency resolved;
        try {
            resolved = LatencyModels.resolve(spec.latency(), path);
        } catch (ConfigException e) {
            problems.addAll(e.problems());
            return null;
        }
        int tp = spec.latency().tp();
        List<ConfigException.Problem> own = new ArrayList<>();
        var engine = spec.engine().withSpeculative(spec.engine().speculative().seeded(seed));
        RunPlan.Engines engines = RunPlan.resolveEngine(engine, resolved, tp, spec.replicas(), null,
                FleetKeys.pool(path), own);
        engines = EncoderPlan.apply(engines, workload, spec.latency(), resolved, tp, FleetKeys.pool(path), false, own);
        var arch = resolved.architectureOrNull();
        if (arch == null) {
            own.add(new ConfigException.Problem("deployment.model", "P/D needs the model's architecture (KV bytes per"
                    + " token size the transfers): a bundled model or a config.json"));
        }
        for (ConfigException.Problem problem : own) {
            if (!problems.contains(problem)) { // a deployment-wide setting both pools lack is reported once
                problems.add(problem);
            }
        }
        if (!own.isEmpty()) {
            return null;
        }
        PoolSetup setup = new PoolSetup(spec.name(), spec.replicas(), tp, engines.engine(), engines.latency(),
                arch.kvBytesPerTokenPerGpu(tp));
        return new Pool(setup, resolved, engines.kvCapacitySource());
    }

    private static double price(PoolSpec pool, double override) {
        double perGpu = Double.isNaN(override) ? pool.latency().gpus().price(pool.latency().hardware()).usdPerGpuHour() : override;
        return perGpu * pool.replicas() * pool.latency().tp();
    }
}
