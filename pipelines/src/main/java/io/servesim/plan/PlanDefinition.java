package io.servesim.plan;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.servesim.sweep.JobDefinition;

/**
 * {@code _PLAN.yaml}, beside a plan's results and first in its staging folder ({@link JobDefinition}): the plan as
 * resolved (the base config inlined, the target, the SLOs, every candidate with its assignments and price, the search
 * settings and seed) and its {@code plan_id}, a hash of all of that. A folder holds the same plan when its id is the
 * same: then an interrupted plan may be resumed there and a finished one replaced.
 */
final class PlanDefinition {
    static final JobDefinition DEFINITION = new JobDefinition("_PLAN.yaml", "plan_id");
    static final String FILE = DEFINITION.file();

    private PlanDefinition() {
    }

    /** The content of {@code _PLAN.yaml} for {@code spec}, its id first. */
    static ObjectNode of(PlanSpec spec) {
        ObjectNode body = JobDefinition.body();
        body.put("name", spec.name());
        body.set("base", spec.base());
        if (spec.capacityOnly()) {
            body.put("start_rps", spec.startRps());
        } else {
            body.put("target_rate_rps", spec.targetRps());
        }
        ArrayNode slo = body.putArray("slo");
        spec.slos().forEach(s -> slo.addObject().put(s.metric(), s.bound()));
        ArrayNode candidates = body.putArray("candidates");
        for (Candidate c : spec.candidates()) {
            ObjectNode n = candidates.addObject();
            n.put("index", c.index());
            n.put("id", c.id());
            n.put("usd_per_gpu_hour", c.usdPerGpuHour());
            n.put("price_source", c.priceSource());
            ObjectNode set = n.putObject("assignments");
            c.assignments().forEach(set::set);
        }
        body.set("search", search(spec.search()));
        spec.seeds().forEach(body.putArray("seeds")::add);
        return DEFINITION.identify(body, spec.baseDir());
    }

    /** The search settings under the plan file's names, which a resume's difference names ({@code search.keep}). */
    private static ObjectNode search(SearchSettings s) {
        ObjectNode n = JobDefinition.body();
        n.put("screen_requests", s.screenRequests());
        n.put("confirm_requests", s.confirmRequests());
        n.put("eta", s.eta());
        n.put("keep", s.keep());
        ObjectNode capacity = n.putObject("capacity");
        capacity.put("tolerance_rps", s.toleranceRps());
        capacity.put("max_rps", s.maxRateRps());
        capacity.put("probes_per_round", s.probesPerRound());
        return n;
    }
}
