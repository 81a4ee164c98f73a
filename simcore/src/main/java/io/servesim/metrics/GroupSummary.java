package io.servesim.metrics;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Metrics of one SLO class or tenant.
 *
 * @param injected       requests that reached the cluster
 * @param completed      completed requests
 * @param rejected       rejected at admission
 * @param dropped        dropped as unservable
 * @param sloMet         completed requests meeting their class's targets
 * @param sloAttainment  sloMet / injected (rejected, dropped and unfinished requests miss)
 * @param ttftMs         TTFT of completed requests
 * @param tpotMs         TPOT of completed requests
 * @param e2eMs          E2E of completed requests
 */
public record GroupSummary(long injected, long completed, long rejected, long dropped, long sloMet,
                           double sloAttainment, Distribution ttftMs, Distribution tpotMs, Distribution e2eMs) {
    public Map<String, Object> toMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("injected", injected);
        m.put("completed", completed);
        m.put("rejected", rejected);
        m.put("dropped", dropped);
        m.put("slo_met", sloMet);
        m.put("slo_attainment", sloAttainment);
        m.put("ttft_ms", ttftMs.toMap());
        m.put("tpot_ms", tpotMs.toMap());
        m.put("e2e_ms", e2eMs.toMap());
        return m;
    }
}
