package io.servesim.workload;

import io.servesim.config.ConfigNode;
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
 * {@code rate_fraction} everywhere therefore splits the rate equally (with the warning).
 */
public final class GeneratorBinder {
    private GeneratorBinder() {
    }

    /** Binds {@code w} (not finished: the caller finishes it); null when invalid. */
    public static GeneratorSpec bind(ConfigNode w, Path baseDir, long runHorizonUs) {
        w.declare("clients");
        Long seed = w.get(WorkloadSettings.SEED);
        Double rate = w.get(WorkloadSettings.AGGREGATE_RATE);
        if (rate == null && !w.has(WorkloadSettings.AGGREGATE_RATE.key())) {
            w.problem(w.pathOf("aggregate_rate"), "required: arrivals (requests or sessions) per second across all clients");
        }
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
        if (w.has("clients")) {
            List<ConfigNode> nodes = w.list("clients");
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
            ClientSpec spec = ClientBinder.bind(w, ClientSettings.SINGLE_CLIENT_ID, baseDir);
            ok = spec != null;
            if (ok) {
                clients.add(spec);
            }
        }
        if (!ok || clients.isEmpty() || rate == null) {
            return null;
        }
        List<String> warnings = new ArrayList<>();
        return new GeneratorSpec(seed == null ? OptionalLong.empty() : OptionalLong.of(seed), rate, numRequests, horizonUs,
                normalise(w, clients, warnings), warnings);
    }

    private static List<ClientSpec> normalise(ConfigNode w, List<ClientSpec> clients, List<String> warnings) {
        double sum = 0;
        for (ClientSpec c : clients) {
            sum += c.rateFraction();
        }
        if (Math.abs(sum - 1) <= 1e-9) {
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
