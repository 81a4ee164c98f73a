-- Quickstart queries (DuckDB) over the output of: scripts/servesim sweep sweeps/quickstart.yaml
-- Run from the repository root in any DuckDB client (paths are relative to it); QuickstartQueriesTest runs them.

-- 1. SLO attainment and TTFT p99 (means over seeds) for each routing policy and load level
SELECT routing, load, avg(slo_attainment) AS slo_attainment, avg(ttft_p99_ms) AS ttft_p99_ms, avg(e2e_p99_ms) AS e2e_p99_ms
FROM 'out/quickstart/cells/*.parquet'
GROUP BY routing, load
ORDER BY routing, load::DOUBLE;

-- 2. TTFT quantiles of completed requests with at least half of their prompt served from the prefix cache vs the rest, per routing policy
SELECT routing, prefix_hit_tokens * 2 >= input_tokens AS half_cached, count(*) AS requests,
       quantile_cont(ttft_us / 1000.0, 0.5) AS ttft_p50_ms,
       quantile_cont(ttft_us / 1000.0, 0.9) AS ttft_p90_ms,
       quantile_cont(ttft_us / 1000.0, 0.99) AS ttft_p99_ms
FROM 'out/quickstart/requests/*.parquet'
WHERE status = 'completed'
GROUP BY routing, half_cached
ORDER BY routing, half_cached;

-- 3. Best routing policy at each load level: highest SLO attainment (mean over seeds), with its TTFT p99
SELECT load, arg_max(routing, slo_attainment) AS best_routing, max(slo_attainment) AS slo_attainment,
       arg_max(ttft_p99_ms, slo_attainment) AS ttft_p99_ms
FROM (SELECT load, routing, avg(slo_attainment) AS slo_attainment, avg(ttft_p99_ms) AS ttft_p99_ms
      FROM 'out/quickstart/cells/*.parquet' GROUP BY load, routing)
GROUP BY load
ORDER BY load::DOUBLE;
