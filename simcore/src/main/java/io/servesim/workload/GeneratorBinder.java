package io.servesim.workload;

import io.servesim.config.ConfigNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/**
 * Binds a synthetic workload section: {@code version}, {@code seed}, {@code aggregate_rate},
 * {@code num_requests}, {@code horizon_us} and either {@code clients: [...]} or one client's keys
 * directly in the section (the short single-client form, client id {@code default}).
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
        w.declare("seed", "clients");
        OptionalLong seed = w.has("seed") ? OptionalLong.of(w.longValue("seed", 0, Long.MIN_VALUE, Long.MAX_VALUE))
                : OptionalLong.empty();
        double rate = w.doubleValue("aggregate_rate", Double.NaN, -Double.MAX_VALUE, Double.MAX_VALUE);
        if (!w.has("aggregate_rate")) {
            w.problem(w.pathOf("aggregate_rate"), "required: arrivals (requests or sessions) per second across all clients");
        } else if (!(rate > 0) && !Double.isNaN(rate)) {
            w.problem(w.pathOf("aggregate_rate"), "must be > 0");
        }
        // -1: absent, or invalid (reported); then the end of the workload is not judged.
        long numRequests = w.longValue("num_requests", -1, 0, Long.MAX_VALUE);
        long horizonUs = w.longValue("horizon_us", -1, 0, Long.MAX_VALUE);
        boolean invalid = w.has("num_requests") && numRequests < 0 || w.has("horizon_us") && horizonUs < 0;
        numRequests = Math.max(0, numRequests);
        horizonUs = Math.max(0, horizonUs);
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
            ClientSpec spec = ClientBinder.bind(w, "default", baseDir);
            ok = spec != null;
            if (ok) {
                clients.add(spec);
            }
        }
        if (!ok || clients.isEmpty() || !(rate > 0)) {
            return null;
        }
        List<String> warnings = new ArrayList<>();
        return new GeneratorSpec(seed, rate, numRequests, horizonUs, normalise(w, clients, warnings), warnings);
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
