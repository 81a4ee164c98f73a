package io.servesim.metrics;

import java.util.List;
import java.util.Optional;

/**
 * A name an output used before the metric catalog gave each quantity one name, and the catalog's name for it.
 * {@code fitness_weights} still takes a former key as the new one, with a note naming it; {@code compare --metrics},
 * which reads columns by their new names, refuses a former one naming the new one; {@code docs/metrics-reference.md}
 * lists them all.
 *
 * @param old   the former name (a run summary JSON path for {@link Where#RUN_JSON})
 * @param now   the catalog's name (a JSON path for {@link Where#RUN_JSON})
 * @param where the output that used it
 */
public record Renamed(String old, String now, Where where) {
    /** The outputs that had names of their own. */
    public enum Where {
        RUN_JSON("run summary JSON"), CELLS("cells/ column"), EVALUATE("evaluate raw metric"), FITNESS("fitness key");

        private final String text;

        Where(String text) {
            this.text = text;
        }

        public String text() {
            return text;
        }
    }

    /** Every renamed name, by output. */
    public static final List<Renamed> ALL = List.of(
            json("/requests_per_sec", "/throughput_rps"),
            json("/input_tokens_per_sec", "/input_tokens_per_s"),
            json("/output_tokens_per_sec", "/output_tokens_per_s"),
            json("/cache_hit_rate", "/prefix_hit_rate"),
            json("/preempted_cache_hit_rate", "/preempted_prefix_hit_rate"),
            json("/token_itl_ms", "/itl_ms"),
            json("/kv_tiers/offloaded_blocks", "/kv_tiers/kv_offloaded_blocks"),
            json("/kv_tiers/reloaded_blocks", "/kv_tiers/kv_reloaded_blocks"),
            json("/kv_tiers/cpu_evictions", "/kv_tiers/kv_cpu_evictions"),
            json("/kv_tiers/transfer_bytes", "/kv_tiers/kv_transfer_bytes"),
            json("/kv_tiers/transfer_ms", "/kv_tiers/kv_transfer_ms"),
            json("/kv_tiers/thrashing_count", "/kv_tiers/kv_thrashed_blocks"),
            json("/kv_tiers/thrashing_rate", "/kv_tiers/kv_thrashing_rate"),
            json("/cluster/delayed", "/cluster/admission_delays"),
            json("/autoscaling/enabled", "/autoscaling/autoscaling_enabled"),
            json("/autoscaling/replica_seconds_by_state/provisioning", "/autoscaling/replica_seconds_provisioning"),
            json("/autoscaling/replica_seconds_by_state/loading", "/autoscaling/replica_seconds_loading"),
            json("/autoscaling/replica_seconds_by_state/warming", "/autoscaling/replica_seconds_warming"),
            json("/autoscaling/replica_seconds_by_state/ready", "/autoscaling/replica_seconds_ready"),
            json("/autoscaling/replica_seconds_by_state/draining", "/autoscaling/replica_seconds_draining"),
            json("/pd/decider", "/pd/pd_decider"),
            json("/pd/remote", "/pd/pd_remote"),
            json("/pd/local", "/pd/pd_local"),
            json("/pd/prefill/replicas", "/pd/prefill_replicas"),
            json("/pd/decode/replicas", "/pd/decode_replicas"),
            json("/pd/prefill/utilization", "/pd/prefill_utilization"),
            json("/pd/decode/utilization", "/pd/decode_utilization"),
            json("/pd/prefill/queueing_ms", "/pd/prefill_queueing_ms"),
            json("/pd/decode/queueing_ms", "/pd/decode_queueing_ms"),
            json("/pd/transfers/count", "/pd/pd_transfers"),
            json("/pd/transfers/bytes", "/pd/pd_transfer_bytes"),
            json("/pd/transfers/transfer_ms", "/pd/pd_transfer_ms"),
            json("/pd/transfers/bandwidth_wait_ms", "/pd/pd_bandwidth_wait_ms"),
            json("/pd/transfers/decode_block_waits", "/pd/pd_decode_block_waits"),
            json("/pd/transfers/decode_block_wait_ms", "/pd/pd_decode_block_wait_ms"),
            new Renamed("events", "events_processed", Where.CELLS),
            new Renamed("kv_thrashing", "kv_thrashed_blocks", Where.CELLS),
            new Renamed("requests_per_sec", "throughput_rps", Where.EVALUATE),
            new Renamed("tokens_per_sec", "output_tokens_per_s", Where.EVALUATE),
            new Renamed("jain_fairness_index", "jain_fairness", Where.EVALUATE),
            new Renamed("cache_hit_rate", "prefix_hit_rate", Where.EVALUATE),
            new Renamed("hol_blocking_events", "head_of_line_blocks", Where.EVALUATE),
            new Renamed("preemption_rate", "preemptions_per_request", Where.EVALUATE),
            new Renamed("throughput", "throughput_rps", Where.FITNESS),
            new Renamed("goodput_share", "goodput_rps", Where.FITNESS),
            new Renamed("mean_ttft", "ttft_mean_ms", Where.FITNESS),
            new Renamed("p99_ttft", "ttft_p99_ms", Where.FITNESS),
            new Renamed("mean_tpot", "tpot_mean_ms", Where.FITNESS),
            new Renamed("p99_tpot", "tpot_p99_ms", Where.FITNESS),
            new Renamed("mean_e2e", "e2e_mean_ms", Where.FITNESS),
            new Renamed("p99_e2e", "e2e_p99_ms", Where.FITNESS),
            new Renamed("cache_hit_rate", "prefix_hit_rate", Where.FITNESS));

    private static Renamed json(String old, String now) {
        return new Renamed(old, now, Where.RUN_JSON);
    }

    /** The renaming of {@code old} in {@code where}, if it is a former name there. */
    public static Optional<Renamed> of(String old, Where where) {
        return ALL.stream().filter(r -> r.where == where && r.old.equals(old)).findFirst();
    }
}
