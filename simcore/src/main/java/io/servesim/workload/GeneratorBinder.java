package io.servesim.workload;

import io.servesim.config.ConfigNode;
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
        w.declare("clients");
        Long seed = w.get(WorkloadSettings.SEED);
        Double rate = w.get(WorkloadSettings.AGGREGATE_RATE);
        long numRequests = w.get(WorkloadSettings.NUM_REQUESTS);
        long horizonUs = w.get(WorkloadSettings.HORIZON_US);
        // a refused value is reported; then the end of the workload is not judged
        boolean invalid = w.refused(WorkloadSettings.NUM_REQUESTS) || w.refused(WorkloadSettings.HORIZON_US);
        if (!invalid && numRequests == 0 && horizonUs == 0 && runHorizonUs == 0) {
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

        if (needsRate && rate == null && !w.has(WorkloadSettings.AGGREGATE_RATE.key())) {
            w.problem(w.pathOf("aggregate_rate"), "required: arrivals (requests or sessions) per second across all clients");
        } else if (!needsRate && w.has(WorkloadSettings.AGGREGATE_RATE.key())) {
            w.problem(w.pathOf("aggregate_rate"), "not used: every client's arrival process is distribution, whose"
                    + " inter_arrival_us sets its rate; remove aggregate_rate");
            return null;
        }
        if (!ok || clients.isEmpty() || needsRate && rate == null) {
            return null;
        }
        List<String> warnings = new ArrayList<>();
        return new GeneratorSpec(seed == null ? OptionalLong.empty() : OptionalLong.of(seed), needsRate ? rate : 0,
                numRequests, horizonUs, normalise(w, clients, warnings), warnings);
    }

    /** Whether the client of node {@code c} runs at a share of the aggregate rate (its process does not set its own). */
    private static boolean hasRate(ConfigNode c) {
        return !ArrivalType.DISTRIBUTION.configName().equalsIgnoreCase(c.raw().path("arrival").path("process").asText());
    }

    /** The clients with the shares of those that have a rate normalised to sum to 1 (with a warning when they did not). */
    private static List<ClientSpec> normalise(ConfigNode w, List<ClientSpec> clients, List<String> warnings) {
        double sum = 0;
        for (ClientSpec c : clients) {
            sum += c.rateFraction();
        }
        if (sum == 0 || Math.abs(sum - 1) <= 1e-9) {
            return clients;
        }
        warnings.add(w.pathOf("clients") + ": rate_fraction values sum to " + sum
                + ", not 1; normalised (each divided by " + sum + ")");
        List<ClientSpec> out = new ArrayList<>();
        for (ClientSpec c : clients) {
            out.add(c.withRateFraction(c.rateFraction() / sum));
        }
        return out;
    }
}
