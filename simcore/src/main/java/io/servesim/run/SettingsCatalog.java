package io.servesim.run;

import io.servesim.cluster.AutoscalingSettings;
import io.servesim.cluster.ClusterSettings;
import io.servesim.config.Setting;
import io.servesim.disagg.PdSettings;
import io.servesim.engine.EngineSettings;
import io.servesim.workload.ClientSettings;
import io.servesim.workload.TraceSettings;
import io.servesim.workload.WorkloadSettings;
import io.servesim.workload.agentic.AgenticSettings;
import io.servesim.workload.reasoning.ReasoningSettings;
import io.servesim.workload.arrival.ArrivalSettings;
import io.servesim.workload.dist.DistributionSettings;
import io.servesim.slo.SloSettings;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Every setting of a run config, one list per section, each declared beside the binder that reads it (as the
 * Caffeine simulator's {@code Registry} lists its policies explicitly): the one place {@code servesim config}, the
 * generated command-line flags and {@code docs/config-reference.md} ({@link ConfigReference}) read. A path or a flag
 * is declared once: {@link #ALL} refuses duplicates as it is built. Each policy kind has a section, built from its
 * registry: the policy's name, then every policy's parameters ({@link PolicyKind#settings}).
 */
public final class SettingsCatalog {
    /** A titled group of settings: one config section. */
    public record Section(String title, String doc, List<Setting<?>> settings) {
    }

    /** The sections, in documentation order. */
    public static final List<Section> SECTIONS = Stream.concat(Stream.of(
            new Section("run", "The seed, the limits of a run and the fitness it is scored by.", RunSettings.ALL),
            new Section("deployment", "What is served, on which GPU and how many, priced by which latency model.",
                    DeploymentSettings.ALL),
            new Section("engine", "One instance: its engine core (vLLM's or SGLang's), scheduler limits, the KV cache"
                    + " and its CPU tier. Also under deployment.pd.<pool>.engine, laid over the top-level engine.", EngineSettings.ALL),
            new Section("engine.speculative", "Speculative decoding (absent: none): who drafts, how many tokens per step and"
                    + " how often the target accepts them. Also under deployment.pd.<pool>.engine.speculative.",
                    io.servesim.engine.SpecDecodeSettings.ALL),
            new Section("frontend", "The serving front end of every instance: the API server's work before a request reaches"
                    + " the engine core and after each token is sampled, and the client network of requests without one.",
                    io.servesim.engine.FrontEndSettings.ALL),
            new Section("cluster", "The control plane around the instances: its decision latencies and how fresh each"
                    + " instance signal is when a policy reads it.", ClusterSettings.ALL),
            new Section("autoscaling", "Replicas coming and going: the fleet's bounds, the scale check, how a new replica"
                    + " starts and an old one drains, and the price of a GPU-hour.", AutoscalingSettings.ALL),
            new Section("deployment.pd", "Prefill/decode disaggregation: two pools and the KV transfer links between"
                    + " them.", plus(PdSettings.ALL, DecodeRouting.NAME)),
            new Section("slo", "Latency targets per SLO class (<class>: a workload's slo_class).", SloSettings.ALL),
            new Section("workload", "The workload (workload spec v2): synthetic clients, a built-in scenario, a trace"
                    + " replay (workload.trace), or the path of a file holding one of them.", WorkloadSettings.ALL),
            new Section("workload clients", "One client of workload.clients, or the workload itself in the single-client"
                    + " form (its keys directly under workload).", ClientSettings.ALL),
            new Section("arrival", "A client's arrival process (workload.clients[].arrival); each process reads only its"
                    + " own parameters.", ArrivalSettings.ALL),
            new Section("distributions", "A distribution block, wherever one stands: a client's"
                    + " input_distribution, output_distribution, priority_distribution, a conversation's turns and"
                    + " think_time_us, a reasoning client's reason_ratio_distribution, a multimodal client's"
                    + " text_distribution and <image|audio|video>_distribution (tokens) and _count_distribution (items per"
                    + " message, 0 to 1000), an agentic step's lengths, a tool's latency and output_tokens, a loop's iterations, the gaps of"
                    + " a distribution arrival process (arrival.inter_arrival_us)."
                    + " Parameters are in the unit of what is measured; each type reads only its own.",
                    DistributionSettings.ALL),
            new Section("trace", "A trace replay (workload.trace).", TraceSettings.ALL),
            new Section("agentic", "An agentic client's workflow (workload.clients[].agentic). Its distribution"
                    + " blocks: an llm_call step's input_distribution and output_distribution (tokens), a tool's"
                    + " tools.<name>.latency (microseconds) and tools.<name>.output_tokens (tokens: the result, which"
                    + " joins the next llm_call's prompt), and loop.iterations (iterations a session runs, capped at"
                    + " max_iterations).", AgenticSettings.ALL),
            new Section("reasoning", "A reasoning client (workload.clients[].reasoning): reason_ratio_distribution, a"
                    + " distribution block of integer percentages, and optional multi-turn sessions.",
                    ReasoningSettings.ALL)),
            PolicyKind.ALL.stream().map(k -> new Section(k.configPath(), k.doc(), k.settings()))).toList();

    /** Every setting, in section order. */
    public static final List<Setting<?>> ALL = all();

    private static final Map<String, Setting<?>> BY_FLAG = byFlag();

    private SettingsCatalog() {
    }

    /** The setting a command-line flag sets ({@code --max-num-seqs}), if any. */
    public static Optional<Setting<?>> byFlag(String flag) {
        return Optional.ofNullable(BY_FLAG.get(flag));
    }

    private static List<Setting<?>> plus(List<Setting<?>> settings, Setting<?> more) {
        return Stream.concat(settings.stream(), Stream.of(more)).toList();
    }

    private static List<Setting<?>> all() {
        List<Setting<?>> all = new ArrayList<>();
        Map<String, Setting<?>> paths = new HashMap<>();
        for (Section s : SECTIONS) {
            for (Setting<?> setting : s.settings()) {
                if (paths.put(setting.path(), setting) != null) {
                    throw new IllegalStateException("setting " + setting.path() + " is declared twice");
                }
                all.add(setting);
            }
        }
        return Collections.unmodifiableList(all);
    }

    private static Map<String, Setting<?>> byFlag() {
        Map<String, Setting<?>> flags = new HashMap<>();
        for (Setting<?> s : ALL) {
            if (s.flagName() != null && flags.put(s.flagName(), s) != null) {
                throw new IllegalStateException("flag " + s.flagName() + " is declared for two settings");
            }
        }
        return Collections.unmodifiableMap(flags);
    }
}
