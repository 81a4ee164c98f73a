package io.servesim.workload;

import com.fasterxml.jackson.databind.JsonNode;
import io.servesim.config.ConfigNode;
import io.servesim.workload.arrival.ArrivalSpec;
import io.servesim.workload.arrival.ArrivalType;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/**
 * Binds a synthetic workload section ({@link WorkloadSettings}: {@code seed}, {@code aggregate_rate},
 * {@code num_requests}, {@code horizon_us}) and either {@code clients: [...]} or one client's keys
 * directly in the section (the short single-client form, client id {@value ClientSettings#SINGLE_CLIENT_ID}).
 *
 * <p>Rate fractions: each must be > 0; when they do not sum to 1 (within 1e-9) every fraction is
 * divided by their sum and a warning says so ({@link GeneratorSpec#warnings()}). Omitting
 * {@code rate_fraction} everywhere therefore splits the rate equally (with the warning). A client whose arrival
 * process sets its own rate ({@code process: distribution}) takes no share: the fractions are those of the other
 * clients, and {@code aggregate_rate} is required only when there is one (and refused when there is none).
 */
public final class GeneratorBinder {
    private GeneratorBinder() {
    }

    /** Binds {@code w} (not finished: the caller finishes it); null when invalid. */
    public static GeneratorSpec bind(ConfigNode w, Path baseDir, long runHorizonUs) {
        w.declare("clients", "stages");
        Long seed = w.get(WorkloadSettings.SEED);
        Double rate = w.get(WorkloadSettings.AGGREGATE_RATE);
        List<Stage> stages = stages(w);
        long intervalUs = w.get(WorkloadSettings.STAGE_INTERVAL_US);
        boolean staged = w.has("stages");
        if (!staged && w.has(WorkloadSettings.STAGE_INTERVAL_US.key())) {
            w.problem(w.pathOf(WorkloadSettings.STAGE_INTERVAL_US.key()), "only for a staged load (workload.stages)");
        }
        long numRequests = w.get(WorkloadSettings.NUM_REQUESTS);
        long horizonUs = w.get(WorkloadSettings.HORIZON_US);
        // a refused value is reported; then the end of the workload is not judged
        boolean invalid = w.refused(WorkloadSettings.NUM_REQUESTS) || w.refused(WorkloadSettings.HORIZON_US);
        if (!invalid && !staged && numRequests == 0 && horizonUs == 0 && runHorizonUs == 0) {
            w.problem(w.pathOf("num_requests"), "required: give num_requests or horizon_us (here or at the top level), "
                    + "or the workload never ends");
        }
        List<ClientSpec> clients = new ArrayList<>();
        boolean ok = true;
        // read from the clients' nodes, so a client that failed to bind counts as what it was meant to be
        boolean needsRate;
        if (w.has("clients")) {
            List<ConfigNode> nodes = w.list("clients");
            needsRate = nodes.isEmpty() || nodes.stream().anyMatch(GeneratorBinder::hasRate);
            if (w.raw().get("clients").isArray() && w.raw().get("clients").isEmpty()) {
                w.problem(w.pathOf("clients"), "must list at least one client");
            }
            Map<String, Integer> seen = new HashMap<>();
            for (int i = 0; i < nodes.size(); i++) {
                ConfigNode c = nodes.get(i);
                ClientSpec spec = ClientBinder.bind(c, null, baseDir);
                c.finish();
                String id = c.raw().path("id").asText(null);
                Integer first = id == null ? null : seen.putIfAbsent(id, i);
                if (first != null) {
                    c.problem(c.pathOf("id"), "duplicate client id '" + id + "' (also clients[" + first + "])");
                }
                if (spec == null) {
                    ok = false;
                } else {
                    clients.add(spec);
                }
            }
        } else {
            needsRate = hasRate(w);
            ClientSpec spec = ClientBinder.bind(w, ClientSettings.SINGLE_CLIENT_ID, baseDir);
            ok = spec != null;
            if (ok) {
                clients.add(spec);
            }
        }
        String category = w.get(WorkloadSettings.CATEGORY);
        if (category != null && ok) {
            ok = categoryHolds(w, category, clients);
        }

        if (staged) {
            if (w.has(WorkloadSettings.AGGREGATE_RATE.key())) {
                w.problem(w.pathOf("aggregate_rate"), "not used by a staged load: each stage's rate replaces it; remove"
                        + " aggregate_rate");
            }
            boolean clientsOk = ok && !clients.isEmpty() && stagedClientsOk(w, clients);
            if (!clientsOk || stages == null || w.has(WorkloadSettings.AGGREGATE_RATE.key())) {
                return null;
            }
            List<String> warnings = new ArrayList<>();
            return new GeneratorSpec(seed == null ? OptionalLong.empty() : OptionalLong.of(seed), 0, numRequests,
                    horizonUs, normalise(w, clients, warnings), warnings, stages, intervalUs);
        }
        if (needsRate && rate == null && !w.has(WorkloadSettings.AGGREGATE_RATE.key())) {
            w.problem(w.pathOf("aggregate_rate"), "required: arrivals (requests or sessions) per second across all clients");
        } else if (!needsRate && w.has(WorkloadSettings.AGGREGATE_RATE.key())) {
            w.problem(w.pathOf("aggregate_rate"), "not used: every client's arrival process is distribution, whose"
                    + " inter_arrival_us sets its rate; remove aggregate_rate");
            return null;
        }
        for (int i = 0; i < clients.size(); i++) {
            if (clients.get(i).arrival() instanceof ArrivalSpec.Spread) {
                w.problem(clientPath(w, i) + "arrival.process", "spread sends each stage's rate x duration requests over"
                        + " the stage: only in a staged load (workload.stages)");
                ok = false;
            }
        }
        if (!ok || clients.isEmpty() || needsRate && rate == null) {
            return null;
        }
        List<String> warnings = new ArrayList<>();
        return new GeneratorSpec(seed == null ? OptionalLong.empty() : OptionalLong.of(seed), needsRate ? rate : 0,
                numRequests, horizonUs, normalise(w, clients, warnings), warnings);
    }

    /**
     * The {@code stages} list: each {@code {rate, duration_us}}; null when absent (then the workload is not staged) or
     * invalid (problems recorded).
     */
    private static List<Stage> stages(ConfigNode w) {
        if (!w.has("stages")) {
            return null;
        }
        List<ConfigNode> nodes = w.list("stages");
        if (w.raw().get("stages").isArray() && nodes.isEmpty() && w.raw().get("stages").isEmpty()) {
            w.problem(w.pathOf("stages"), "must list at least one stage {rate, duration_us}");
            return null;
        }
        List<Stage> out = new ArrayList<>();
        boolean ok = nodes.size() == w.raw().get("stages").size();
        for (ConfigNode n : nodes) {
            Double rate = n.get(WorkloadSettings.STAGE_RATE);
            Long duration = n.get(WorkloadSettings.STAGE_DURATION_US);
            for (var s : List.of(WorkloadSettings.STAGE_RATE, WorkloadSettings.STAGE_DURATION_US)) {
                if (!n.has(s.key())) {
                    n.problem(n.pathOf(s.key()), "required in a stage");
                }
            }
            n.finish();
            if (rate == null || duration == null) {
                ok = false;
            } else {
                out.add(new Stage(rate, duration));
            }
        }
        return ok ? out : null;
    }

    /**
     * Whether a staged load's clients all run at their share of the stage's rate ({@code distribution} sets its own)
     * and no {@code spread} client has a lifecycle window; problems recorded.
     */
    private static boolean stagedClientsOk(ConfigNode w, List<ClientSpec> clients) {
        boolean ok = true;
        for (int i = 0; i < clients.size(); i++) {
            ClientSpec c = clients.get(i);
            if (!c.arrival().hasRate()) {
                w.problem(clientPath(w, i) + "arrival.process", "distribution sets the client's own rate, which a staged"
                        + " load's stages would not; use a process that runs at the stage's rate");
                ok = false;
            }
            if (c.arrival() instanceof ArrivalSpec.Spread && (c.startUs() > 0 || c.stopUs() != Long.MAX_VALUE)) {
                w.problem(clientPath(w, i) + "lifecycle", "spread sends exactly floor(rate x duration) requests over each"
                        + " stage, which a lifecycle window would cut; remove lifecycle or use another process");
                ok = false;
            }
        }
        return ok;
    }

    /**
     * Whether the clients are what {@code category} says (BLIS {@code WorkloadSpec.Category}, inference-sim @
     * 9c7838a7, {@code sim/workload/spec.go}: language, multimodal, reasoning, with the agentic category its agentic
     * workload proposal adds): multimodal, reasoning or agentic, some client has that block; language, no client has
     * any of them. A problem names the category.
     */
    private static boolean categoryHolds(ConfigNode w, String category, List<ClientSpec> clients) {
        String path = w.pathOf(WorkloadSettings.CATEGORY.key());
        if (category.equals("language")) {
            for (String block : new String[] {"agentic", "multimodal", "reasoning"}) {
                if (clients.stream().anyMatch(c -> has(c, block))) {
                    w.problem(path, "'language' but a client has a" + (block.equals("agentic") ? "n " : " ") + block
                            + " block; write category: " + block + ", or leave category out");
                    return false;
                }
            }
            return true;
        }
        if (clients.stream().noneMatch(c -> has(c, category))) {
            w.problem(path, "'" + category + "' but no client has a" + (category.equals("agentic") ? "n " : " ")
                    + category + " block; add one, or write category: language");
            return false;
        }
        return true;
    }

    /** Whether client {@code c} has the {@code block} (agentic, multimodal or reasoning). */
    private static boolean has(ClientSpec c, String block) {
        return switch (block) {
            case "agentic" -> c.agentic() != null;
            case "multimodal" -> c.multimodal() != null;
            default -> c.reasoning() != null;
        };
    }

    /** The path of client {@code i} with a trailing dot: {@code clients[i].}, or the section's own in the short form. */
    private static String clientPath(ConfigNode w, int i) {
        return w.raw().has("clients") ? w.pathOf("clients") + "[" + i + "]." : w.path().isEmpty() ? "" : w.path() + ".";
    }

    /** Whether the client of node {@code c} runs at a share of the aggregate rate (its process does not set its own). */
    private static boolean hasRate(ConfigNode c) {
        return !ArrivalType.DISTRIBUTION.configName().equalsIgnoreCase(c.raw().path("arrival").path("process").asText());
    }

    /**
     * The clients with the shares of those that have a rate normalised to sum to 1: with a warning when some gave a
     * {@code rate_fraction} and they did not sum to 1; silently when none gave one (equal shares).
     */
    private static List<ClientSpec> normalise(ConfigNode w, List<ClientSpec> clients, List<String> warnings) {
        double sum = 0;
        for (ClientSpec c : clients) {
            sum += c.rateFraction();
        }
        if (sum == 0 || Math.abs(sum - 1) <= 1e-9) {
            return clients;
        }
        boolean given = false;
        for (JsonNode c : w.raw().path("clients")) {
            given |= c.has("rate_fraction");
        }
        if (given) { // clients that give none share the rate equally, as they were written to
            warnings.add(w.pathOf("clients") + ": rate_fraction values sum to " + sum
                    + ", not 1; normalised (each divided by " + sum + ")");
        }
        List<ClientSpec> out = new ArrayList<>();
        for (ClientSpec c : clients) {
            out.add(c.withRateFraction(c.rateFraction() / sum));
        }
        return out;
    }
}
