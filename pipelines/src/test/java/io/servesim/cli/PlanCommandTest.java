package io.servesim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.servesim.testing.RepoFiles;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code servesim plan} and {@code servesim capacity} end to end, in process, on the DirectRunner: a plan of 2 GPUs x
 * TP 1, 2 x 1-4 replicas (16 candidates, 300 chat requests at 12 req/s) writes its summary, candidates, frontier,
 * rounds, report, recommended config and vLLM commands; the recommended config runs; the same plan at another
 * parallelism gives the same rows; and the output folder follows a sweep's rules.
 */
class PlanCommandTest {
    static final String PLAN = io.servesim.plan.TestPlans.small("small", 4, 500,
            "{screen_requests: 100, confirm_requests: 300, keep: 2}");

    @TempDir
    static Path tmp;
    static Path plan;
    static Path out;
    static CliRun.Result first;

    @BeforeAll
    static void runThePlan() throws Exception {
        plan = Files.writeString(tmp.resolve("small.yaml"), PLAN);
        out = tmp.resolve("out");
        first = CliRun.exec("plan", plan.toString(), "--output", out.toString(), "--parallelism", "2");
        assertEquals(0, first.code(), first.err());
    }

    static long scalar(String sql) throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement s = c.createStatement();
             ResultSet r = s.executeQuery(sql)) {
            r.next();
            return r.getLong(1);
        }
    }

    static String parquet(Path dir, String dataset) {
        return "read_parquet('" + dir.resolve(dataset).resolve("*.parquet") + "')";
    }

    @Test
    void aBaseWorkloadsRateAndRequestsAreSaidToBeReplaced() throws Exception {
        assertTrue(PlanCommand.replacedByThePlan(io.servesim.plan.PlanFile.load(plan)).isEmpty(), "the base gives neither");
        Path rated = Files.writeString(tmp.resolve("rated.yaml"), PLAN.replace("workload: {scenario: chat,",
                "workload: {scenario: chat, aggregate_rate: 3, num_requests: 50,"));
        assertEquals("base.workload.aggregate_rate (3) and base.workload.num_requests (50) are replaced in every run: the"
                + " rate is target_rate_rps (12.0) or a capacity probe's, the requests a budget of search.budgets [100, 300]",
                PlanCommand.replacedByThePlan(io.servesim.plan.PlanFile.load(rated)).orElseThrow());
    }

    @Test
    void itPrintsTheAnswerAndWritesEveryOutput() throws Exception {
        assertTrue(first.out().contains("plan small: 12 req/s within ttft_p99_ms <= 500, tpot_p90_ms <= 50"), first.out());
        assertTrue(first.out().contains("recommended: ") && first.out().contains("frontier (cost per hour -> capacity)"),
                first.out());
        for (String f : new String[] {"recommended.yaml", "vllm-serve.txt", "summary.txt", "report.html", "_PLAN.yaml",
                "_SUMMARY.json", "_SUCCESS"}) {
            assertTrue(Files.isRegularFile(out.resolve(f)), f);
        }
        assertFalse(Files.exists(out.resolve("_INCOMPLETE")) || Files.exists(out.resolve("_staging")));
        assertEquals(first.out(), Files.readString(out.resolve("summary.txt")));
        assertEquals(16, scalar("SELECT count(*) FROM " + parquet(out, "candidates")));
        // every candidate that ran says its latency model and whether it is calibrated on its GPU (the roofline on H100: yes)
        assertEquals(0, scalar("SELECT count(*) FROM " + parquet(out, "candidates") + " WHERE trace_requests IS NOT NULL"
                + " AND (latency_model IS NULL OR latency_calibration IS DISTINCT FROM 'calibrated')"));
        assertEquals(0, scalar("SELECT count(*) FROM " + parquet(out, "frontier") + " WHERE latency_calibration <> 'calibrated'"));
        assertEquals(1, scalar("SELECT count(*) FROM " + parquet(out, "candidates") + " WHERE recommended"));
        // one seed: the answer is called thin when its slack (candidates' slo_slack) is below 1.05
        boolean thin = scalar("SELECT count(*) FROM " + parquet(out, "candidates") + " WHERE recommended AND slo_slack < 1.05") == 1;
        assertEquals(thin, first.out().contains("to spare on one seed; with seeds: [1, 2, 3] in the plan"), first.out());
        // slo_values holds the plan's SLO metrics of the run a verdict rests on (here two of the fixed columns too)
        assertEquals(0, scalar("SELECT count(*) FROM " + parquet(out, "candidates") + " WHERE trace_requests IS NOT NULL"
                + " AND (slo_values['ttft_p99_ms'] IS DISTINCT FROM ttft_p99_ms OR slo_values['tpot_p90_ms'] IS DISTINCT FROM"
                + " tpot_p90_ms OR cardinality(slo_values) <> 2)"));
        assertEquals(0, scalar("SELECT count(*) FROM " + parquet(out, "candidates") + " WHERE trace_requests IS NULL"
                + " AND cardinality(slo_values) <> 0"));
        assertEquals(scalar("SELECT count(*) FROM " + parquet(out, "frontier")),
                scalar("SELECT count(*) FROM " + parquet(out, "candidates") + " WHERE on_frontier"));
        // every round is a sweep's output folder: its rows are the plan's runs
        long runs = scalar("SELECT count(*) FROM read_parquet('" + out.resolve("rounds") + "/*/cells/*.parquet')");
        assertTrue(first.err().contains(runs + " runs"), runs + " in " + first.err());
        String vllm = Files.readString(out.resolve("vllm-serve.txt"));
        assertTrue(vllm.contains("vllm serve meta-llama/Llama-3.1-8B-Instruct --port 8000 --tensor-parallel-size"), vllm);
    }

    @Test
    void theRecommendedConfigRunsAndMeetsTheSlos() throws Exception {
        // the run that met every SLO: the plan's target rate, full trace and seed
        CliRun.Result run = CliRun.exec("run", "-c", out.resolve("recommended.yaml").toString());
        assertEquals(0, run.code(), run.err());
        assertTrue(run.json().path("ttft_ms").path("p99").asDouble() <= 500, run.out());
        assertEquals(300, run.json().path("completed").asLong());
        assertEquals(scalar("SELECT round(ttft_p99_ms * 1000) FROM " + parquet(out, "candidates") + " WHERE recommended"),
                Math.round(run.json().path("ttft_ms").path("p99").asDouble() * 1000), "the same run as the plan's");
    }

    @Test
    void theRecommendedConfigFindsTheFilesThePlanNamesBesideIt() throws Exception {
        // a model's config.json and a code policy's source, both relative to the plan's folder
        Path dir = Files.createDirectories(tmp.resolve("paths").resolve("plans"));
        Files.createDirectories(dir.resolve("mymodel"));
        Files.copy(RepoFiles.data("models/llama-3.1-8b-instruct.config.json"), dir.resolve("mymodel/config.json"));
        Files.copy(RepoFiles.path("sweeps/policies/code/PrefixAwareLeastLoad.java"), dir.resolve("Router.java"));
        Path paths = Files.writeString(dir.resolve("paths.yaml"), PLAN.replace("name: small", "name: paths")
                .replace("model: meta-llama/llama-3.1-8b-instruct", "model: mymodel/config.json")
                .replace("policies: {routing: least-loaded}", "policies: {routing: {name: code, params: {source: Router.java}}}")
                .replace("replicas: {min: 1, max: 4}", "replicas: {min: 2, max: 2}"));
        Path planned = tmp.resolve("paths").resolve("out");
        CliRun.Result r = CliRun.exec("plan", paths.toString(), "--output", planned.toString());
        assertEquals(0, r.code(), r.err());
        String yaml = Files.readString(planned.resolve("recommended.yaml"));
        assertTrue(yaml.contains("model: ../plans/mymodel/config.json") && yaml.contains("source: ../plans/Router.java"), yaml);
        // the launch commands serve the model's folder wherever they are run from
        String serve = Files.readString(planned.resolve("vllm-serve.txt"));
        assertTrue(serve.contains("vllm serve " + dir.resolve("mymodel").toAbsolutePath().normalize() + " "), serve);
        CliRun.Result run = CliRun.exec("run", "-c", planned.resolve("recommended.yaml").toString());
        assertEquals(0, run.code(), run.err());
    }

    @Test
    void anotherParallelismGivesTheSameRows() throws Exception {
        Path again = tmp.resolve("again");
        CliRun.Result r = CliRun.exec("plan", plan.toString(), "--output", again.toString(), "--parallelism", "1");
        assertEquals(0, r.code(), r.err());
        assertEquals(first.out().replace(out.toString(), "OUT"), r.out().replace(again.toString(), "OUT"));
        for (String d : new String[] {"candidates", "frontier"}) {
            assertEquals(0, scalar("SELECT count(*) FROM (SELECT * FROM " + parquet(out, d) + " EXCEPT ALL SELECT * FROM "
                    + parquet(again, d) + ")") + scalar("SELECT count(*) FROM (SELECT * FROM " + parquet(again, d)
                    + " EXCEPT ALL SELECT * FROM " + parquet(out, d) + ")"), d);
        }
    }

    @Test
    void aFinishedPlanIsNotRunAgainOnResumeAndFilesOfTheUsersAreKept() throws Exception {
        CliRun.Result resumed = CliRun.exec("plan", plan.toString(), "--output", out.toString(), "--resume");
        assertEquals(0, resumed.code(), resumed.err());
        assertTrue(resumed.err().contains("nothing to resume"), resumed.err());
        assertEquals(first.out(), resumed.out());

        Path mine = tmp.resolve("mine");
        Files.createDirectories(mine.resolve("candidates"));
        Files.writeString(mine.resolve("notes.txt"), "mine");
        CliRun.Result refused = CliRun.exec("plan", plan.toString(), "--output", mine.toString());
        assertEquals(2, refused.code());
        assertTrue(refused.err().contains("is not empty and is not a servesim plan") && refused.err().contains("notes.txt"),
                refused.err());
        Files.writeString(mine.resolve("candidates").resolve("x.parquet"), "mine");
        CliRun.Result inData = CliRun.exec("plan", plan.toString(), "--output", mine.toString(), "--overwrite");
        assertEquals(2, inData.code());
        assertTrue(inData.err().contains("inside its dataset folders (candidates/x.parquet)"), inData.err());
        Files.delete(mine.resolve("candidates").resolve("x.parquet"));
        CliRun.Result beside = CliRun.exec("plan", plan.toString(), "--output", mine.toString(), "--overwrite");
        assertEquals(0, beside.code(), beside.err());
        assertEquals("mine", Files.readString(mine.resolve("notes.txt")));
    }

    /**
     * A round is a sweep's output, but its report goes outside the plan's folder, which holds only the plan's files: a
     * page of the report's in {@code rounds/} would keep the plan from running into its folder again.
     */
    @Test
    void aRoundsReportIsWrittenOutsideThePlansFolder() throws Exception {
        Path round = out.resolve("rounds").resolve("01");
        CliRun.Result refused = CliRun.exec("report", round.toString());
        assertEquals(2, refused.code(), refused.err());
        assertTrue(refused.err().contains("inside " + out + ", the output folder of a capacity plan (servesim plan)")
                && refused.err().contains("--out " + tmp.resolve("out-01.html")), refused.err());
        assertFalse(Files.exists(round.resolve("report.html")));
        CliRun.Result beside = CliRun.exec("report", round.toString(), "--out", tmp.resolve("out-01.html").toString());
        assertEquals(0, beside.code(), beside.err());
        CliRun.Result resumed = CliRun.exec("plan", plan.toString(), "--output", out.toString(), "--resume");
        assertEquals(0, resumed.code(), resumed.err());
    }

    @Test
    void withSeveralSeedsEveryProbeRunsOncePerSeedAndCountsAsItsWorst() throws Exception {
        Path seeds = Files.writeString(tmp.resolve("seeds.yaml"), io.servesim.plan.TestPlans.small("seeds", 2, 500,
                "{screen_requests: 100, confirm_requests: 300, keep: 2}") + "seeds: [1, 2]\n");
        Path dir = tmp.resolve("seeds");
        CliRun.Result r = CliRun.exec("plan", seeds.toString(), "--output", dir.toString());
        assertEquals(0, r.code(), r.err());
        String rounds = "read_parquet('" + dir.resolve("rounds") + "/*/cells/*.parquet')";
        assertEquals(0, scalar("SELECT count(*) FROM (SELECT candidate, rate_rps, requests FROM " + rounds
                + " GROUP BY ALL HAVING count(*) <> 2 OR count(DISTINCT seed) <> 2)"), "each probe ran with seeds 1 and 2");
        // a candidate's values at the target on the full trace are its worst seed's: every candidate here meets the SLOs
        // or misses them on both seeds alike, so the worst is the larger p99 TTFT
        assertEquals(0, scalar("SELECT count(*) FROM " + parquet(dir, "candidates") + " c JOIN (SELECT candidate,"
                + " max(ttft_p99_ms) AS worst, min(ttft_p99_ms) AS best FROM " + rounds + " WHERE rate_rps = '12' AND"
                + " requests = '300' GROUP BY candidate) s USING (candidate) WHERE c.trace_requests = 300"
                + " AND c.ttft_p99_ms <> s.worst"));
        assertTrue(scalar("SELECT count(*) FROM (SELECT candidate FROM " + rounds + " WHERE rate_rps = '12' AND requests"
                + " = '300' GROUP BY candidate HAVING max(ttft_p99_ms) > min(ttft_p99_ms))") > 0, "the seeds' traces differ");
        assertTrue(Files.readString(dir.resolve("recommended.yaml")).contains("seed: 1"));
    }

    @Test
    void aRecommendationOnAGpuTheLatencyModelWasNotFittedOnSaysSo() throws Exception {
        assertFalse(first.out().contains("uncalibrated"), "H100 and A100-80GB are calibrated: " + first.out());
        Path b200 = Files.writeString(tmp.resolve("b200.yaml"), io.servesim.plan.TestPlans.small("b200", 2, 500,
                "{screen_requests: 100, confirm_requests: 300, keep: 2}").replace("gpus: [H100, A100-80GB]", "gpus: [B200]")
                + "prices: {B200: 6.25}\n");
        CliRun.Result r = CliRun.exec("plan", b200.toString(), "--output", tmp.resolve("b200").toString());
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("recommended: B200-"), r.out());
        assertTrue(r.out().contains("  note: the latency model is uncalibrated on B200: no GEMM or engine-step measurement of"
                + " it was used to obtain it, so its step times are estimates from the GPU's row"), r.out());
        assertEquals(1, scalar("SELECT count(*) FROM " + parquet(tmp.resolve("b200"), "candidates") + " WHERE recommended"
                + " AND latency_model = 'roofline' AND latency_calibration = 'uncalibrated'"));
    }

    @Test
    void whenNothingMeetsTheSlosItSaysWhichAndTheClosest() throws Exception {
        Path impossible = Files.writeString(tmp.resolve("impossible.yaml"), io.servesim.plan.TestPlans.small("impossible", 2, 1,
                "{screen_requests: 100, confirm_requests: 300, keep: 2}"));
        CliRun.Result r = CliRun.exec("plan", impossible.toString(), "--output", tmp.resolve("impossible").toString());
        assertEquals(3, r.code(), "no answer is its own exit code: " + r.err());
        assertTrue(r.err().contains("servesim plan: no candidate meets every objective (exit 3)"), r.err());
        assertTrue(r.out().contains("no candidate meets every objective at 12 req/s on 300 requests: no candidate met"
                + " ttft_p99_ms <= 1"), r.out());
        assertTrue(r.out().contains("closest: ") && r.out().contains("misses ttft_p99_ms <= 1"), r.out());
        assertFalse(Files.exists(tmp.resolve("impossible").resolve("recommended.yaml")));
        CliRun.Result again = CliRun.exec("plan", impossible.toString(), "--output", tmp.resolve("impossible").toString(),
                "--resume");
        assertEquals(3, again.code(), "a complete plan found again gives the same answer: " + again.err());
        assertEquals(r.out(), again.out());
    }

    @Test
    void capacitySearchesOneConfig() throws Exception {
        Path cfg = Files.writeString(tmp.resolve("one.yaml"), """
                deployment: {model: meta-llama/llama-3.1-8b-instruct, hardware: H100, tp: 1, latency_model: roofline}
                workload: {scenario: chat, arrival: {process: poisson}, aggregate_rate: 4, num_requests: 300}
                """);
        CliRun.Result r = CliRun.exec("capacity", cfg.toString(), "--slo", "ttft_p99_ms=500,tpot_p90_ms=50", "--tolerance",
                "0.25", "--output", tmp.resolve("cap").toString());
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().startsWith("capacity: ") && r.out().contains(" misses; grid step 0.25)"), r.out());
        assertTrue(r.out().contains("\n  latency model: roofline\n"), "it says which model priced the runs: " + r.out());
        assertEquals(1, scalar("SELECT count(*) FROM " + parquet(tmp.resolve("cap"), "candidates") + " WHERE capacity_rps > 4"));

        // a TTFT p99 of 1 ms no rate meets: no answer, as a plan without one (exit 3), and said so
        CliRun.Result none = CliRun.exec("capacity", cfg.toString(), "--slo", "ttft_p99_ms=1", "--output",
                tmp.resolve("cap-none").toString());
        assertEquals(3, none.code(), none.err());
        assertTrue(none.out().contains("(no rate of the grid met every SLO)"), none.out());
        assertTrue(none.err().contains("servesim capacity: no rate of the grid meets every objective (exit 3)"), none.err());
        // found again complete, it answers the same (the config given as run's -c is the same search)
        CliRun.Result again = CliRun.exec("capacity", "-c", cfg.toString(), "--slo", "ttft_p99_ms=1", "--output",
                tmp.resolve("cap-none").toString(), "--resume");
        assertEquals(3, again.code(), again.err());
    }

    @Test
    void aMoePlanWeighsReplicasAgainstDataParallelDeployments() throws Exception {
        // Qwen3-30B-A3B on H100s: 1-2 TP 1 replicas against 2 data-parallel ranks, with and without expert parallelism
        Path moe = Files.writeString(tmp.resolve("moe.yaml"), """
                name: moe
                base:
                  deployment: {model: Qwen/Qwen3-30B-A3B-Instruct-2507, hardware: H100, latency_model: roofline}
                  engine: {max_model_len: 32768}
                  workload: {scenario: chat, arrival: {process: poisson}}
                target_rate_rps: 6
                slo: [{ttft_p99_ms: 500}, {tpot_p90_ms: 40}]
                space: {gpus: [H100], replicas: [1, 2], dp: {ranks: [2], ep: [false, true]}}
                search: {screen_requests: 100, confirm_requests: 200, keep: 2}
                """);
        Path dir = tmp.resolve("moe-out");
        CliRun.Result r = CliRun.exec("plan", moe.toString(), "--output", dir.toString());
        assertEquals(0, r.code(), r.err());
        String candidates = parquet(dir, "candidates");
        assertEquals(2, scalar("SELECT count(*) FROM " + candidates + " WHERE architecture = 'dp' AND dp_ranks = 2"
                + " AND gpus = 2 AND instances = 2 AND status <> 'invalid'"));
        assertEquals(1, scalar("SELECT count(*) FROM " + candidates + " WHERE candidate = 'H100-tp1-dp2ep-default'"
                + " AND expert_parallel"));
        assertEquals(2, scalar("SELECT count(*) FROM " + candidates + " WHERE architecture = 'aggregated'"
                + " AND dp_ranks IS NULL AND expert_parallel IS NULL"));
        // the first round: both data-parallel fleets (no family: each runs on the screen trace) and the replica
        // family's bisection, which starts at the middle of its two counts
        assertEquals(3, scalar("SELECT count(DISTINCT candidate) FROM " + parquet(dir.resolve("rounds/01"), "cells")));
        assertEquals(2, scalar("SELECT count(*) FROM " + parquet(dir.resolve("rounds/01"), "cells")
                + " WHERE candidate LIKE '%-dp2%'"));
    }

    @Test
    void capacityOfADataParallelConfigIsOneDataParallelDeployment() throws Exception {
        Path cfg = Files.writeString(tmp.resolve("dp.yaml"), """
                deployment: {model: Qwen/Qwen3-30B-A3B-Instruct-2507, hardware: H100, latency_model: roofline, dp: 2, ep: true}
                engine: {max_model_len: 32768}
                workload: {scenario: chat, arrival: {process: poisson}, aggregate_rate: 4, num_requests: 200}
                """);
        Path dir = tmp.resolve("cap-dp");
        CliRun.Result r = CliRun.exec("capacity", cfg.toString(), "--slo", "ttft_p99_ms=500", "--tolerance", "1",
                "--output", dir.toString());
        assertEquals(0, r.code(), r.err());
        assertEquals(1, scalar("SELECT count(*) FROM " + parquet(dir, "candidates") + " WHERE architecture = 'dp'"
                + " AND dp_ranks = 2 AND expert_parallel AND gpus = 2"));
    }

    @Test
    void capacityWithSeveralSeedsIsTheLeastOfEachSeeds() throws Exception {
        // the SLO metrics grow with the rate on each seed's trace, so the rates met on every seed are those up to the
        // least of the seeds' capacities, and the bisection over the joint verdict finds that grid point
        Path cfg = Files.writeString(tmp.resolve("seeds.yaml"), """
                deployment: {model: meta-llama/llama-3.1-8b-instruct, hardware: H100, tp: 1, latency_model: roofline}
                workload: {scenario: chat, arrival: {process: poisson}, aggregate_rate: 4, num_requests: 200}
                """);
        long[] capacity = new long[3];
        String[] seeds = {"1,2", "1", "2"};
        for (int i = 0; i < 3; i++) {
            Path dir = tmp.resolve("cap-seeds-" + i);
            CliRun.Result r = CliRun.exec("capacity", cfg.toString(), "--slo", "ttft_p99_ms=300", "--tolerance", "0.5",
                    "--seeds", seeds[i], "--output", dir.toString());
            assertEquals(0, r.code(), r.err());
            assertEquals(seeds[i].contains(","), r.out().contains(", the worst of 2 seeds"), r.out());
            capacity[i] = scalar("SELECT round(capacity_rps * 1000) FROM " + parquet(dir, "candidates"));
        }
        assertNotEquals(capacity[1], capacity[2], "the seeds' traces differ in what they sustain");
        assertEquals(Math.min(capacity[1], capacity[2]), capacity[0], "seeds 1 and 2 alone: " + capacity[1] + ", " + capacity[2]);
        // a config with a seed of its own: --seeds replaces it, as a flag replaces a config's value
        Path seeded = Files.writeString(tmp.resolve("seeded.yaml"), "seed: 7\n" + Files.readString(cfg));
        CliRun.Result replaced = CliRun.exec("capacity", seeded.toString(), "--slo", "ttft_p99_ms=300", "--tolerance", "0.5",
                "--seeds", "1,2", "--output", tmp.resolve("cap-seeded").toString());
        assertEquals(0, replaced.code(), replaced.err());
        assertEquals(capacity[0], scalar("SELECT round(capacity_rps * 1000) FROM " + parquet(tmp.resolve("cap-seeded"),
                "candidates")), "the config's seed 7 gave way to seeds 1 and 2");
        CliRun.Result twice = CliRun.exec("capacity", cfg.toString(), "--slo", "ttft_p99_ms=300", "--seeds", "1,1",
                "--output", tmp.resolve("cap-twice").toString());
        assertEquals(2, twice.code());
        assertTrue(twice.err().contains("--seeds: a seed is given twice: [1, 1]"), twice.err());
    }
}
