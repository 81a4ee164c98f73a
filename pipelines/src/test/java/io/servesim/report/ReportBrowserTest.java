package io.servesim.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.servesim.cli.Main;
import io.servesim.testing.RepoFiles;
import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The sweep report opened in a real browser (Debian's headless chromium, {@link HeadlessChromium}): a 12-cell
 * sweep (2 routing policies x 3 rates x 2 seeds, 120 requests per cell on 2 x H100) run with
 * {@code sweep --report}, compared with 6 made-up measurements ({@code compare}) and reported again
 * ({@code report OUT_DIR}), then the page loaded with {@code --dump-dom}. The page writes a status object into
 * {@code #report-status} once it has drawn; the test fails on any console message, any script error, a chart
 * missing, or a chart whose drawn marks (data items with a graphic element) differ from its data; and on a
 * blank screenshot. The same for {@code replay-real --report} on the shipped vLLM run, for a sweep using a CPU KV tier
 * and autoscaling, for a P/D sweep (its panel drawn, absent from the others) and for a capacity plan's page (its frontier
 * and slack charts). The screenshots are kept in
 * {@code target/report-screenshots/} for a person to look at.
 */
class ReportBrowserTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path tmp;

    private static Path out;

    @BeforeAll
    static void sweepWithReport() throws Exception {
        Path sweep = Files.writeString(tmp.resolve("s12.yaml"), """
                name: report-browser
                base:
                  deployment: {model: meta-llama/llama-3.1-8b-instruct, hardware: H100, tp: 1, instances: 2}
                  engine: {max_num_seqs: 64, max_num_batched_tokens: 2048, block_size: 16}
                  workload:
                    num_requests: 120
                    input_distribution: {type: gaussian, params: {mean: 256, std_dev: 64, min: 16, max: 1024}}
                    output_distribution: {type: gaussian, params: {mean: 64, std_dev: 16, min: 1, max: 256}}
                    prefix: {group: system, length: 128}
                axes:
                  - {name: routing, path: policies.routing.name, values: [round-robin, least-loaded]}
                  - {name: rate, path: workload.aggregate_rate, values: [20, 60, 120]}
                seeds: [1, 2]
                """);
        out = tmp.resolve("out");
        assertEquals(0, Main.execute("sweep", sweep.toString(), "--output", out.toString(), "--report"));
        // measurements of the 6 axis combinations, compared; the report written again then has the sim-vs-real panel
        Path real = Files.writeString(tmp.resolve("real.csv"), """
                routing,rate,ttft_p99_ms,e2e_p99_ms
                round-robin,20,35,900
                round-robin,60,50,1500
                round-robin,120,80,2000
                least-loaded,20,36,880
                least-loaded,60,60,1600
                least-loaded,120,79,1950
                """);
        assertEquals(0, Main.execute("compare", "--sim", out.resolve("cells").toString(), "--real", real.toString(), "--on",
                "routing,rate", "--metrics", "ttft_p99_ms,e2e_p99_ms"));
        assertEquals(0, Main.execute("report", out.toString()));
    }

    @Test
    void thePageIsSelfContained() throws Exception {
        String page = Files.readString(out.resolve(SweepReport.DEFAULT_FILE));
        String echarts = HtmlPage.echarts().replace("</script", "<\\/script");
        assertTrue(page.contains(echarts), "ECharts is inlined from the WebJar");
        String html = page.replace(echarts, "");
        for (String external : List.of("<script src", "<link", "@import", "url(http", "<iframe", "<img")) {
            assertFalse(html.contains(external), "the page must load nothing: found " + external);
        }
        assertTrue(html.contains("load axis: rate (detected: it sets workload.aggregate_rate)"), "the page names the load axis");
    }

    @Test
    void everyChartDrawsItsMarksInChromium() throws Exception {
        HeadlessChromium chromium = HeadlessChromium.find();
        Path html = out.resolve(SweepReport.DEFAULT_FILE);
        JsonNode status = loadedStatus(chromium, html);
        // expected marks per chart, from the grid: 2 policies x 2 percentiles x 3 rates on each latency curve,
        // 2 x 3 heatmap cells, 2 policies x 103 quantiles per CDF, 2 policies x 2 instances of bars,
        // 2 policies x 3 rates on each cache curve; nothing else (an aggregated sweep has no P/D panel)
        Map<String, Integer> expected = new LinkedHashMap<>();
        for (int i = 0; i < 3; i++) {
            expected.put("latency-" + i, 12);
        }
        expected.put("slo-0", 6);
        expected.put("slo-1", 6);
        expected.put("cdf-0", 2 * LatencyCdfPanel.PROBABILITIES.length);
        expected.put("cdf-1", 2 * LatencyCdfPanel.PROBABILITIES.length);
        expected.put("instances-0", 4);
        expected.put("cache-0", 6);
        expected.put("cache-1", 6);
        expected.put("compare-0", 6);
        expected.put("compare-1", 6);
        Map<String, Integer> drawn = drawnMarks(status);
        for (JsonNode c : status.path("chartMarks")) {
            assertTrue(c.path("svgElements").asInt() > c.path("drawn").asInt(), "axes and marks in the SVG of " + c);
        }
        assertEquals(expected, drawn);

        keepScreenshot(chromium, html, 2400, "sweep-report.png");
    }

    @Test
    void tieredKvAndAutoscalingPanelsDrawWhenTheSweepUsedThem() throws Exception {
        // 2 cells (rate 40 and 60) of multi-turn conversations on 1-4 autoscaled replicas whose 600-block GPU
        // caches overflow into a CPU tier: both features are in use, so both panels appear
        Path sweep = Files.writeString(tmp.resolve("features.yaml"), """
                name: features
                base:
                  deployment: {model: meta-llama/llama-3.1-8b-instruct, hardware: H100, tp: 1, instances: 1}
                  engine: {max_num_seqs: 64, max_num_batched_tokens: 2048, block_size: 16, total_kv_blocks: 600,
                           max_model_len: 8192, kv_cpu_blocks: 20000}
                  policies:
                    routing: least-loaded
                    autoscale: {name: threshold, params: {signal: in_flight, scale_up: 8, scale_down: 2, cooldown: 2s}}
                  autoscaling: {enabled: true, min: 1, max: 4, check_interval: 1s, provisioning_delay: 1s, load_time: 2s,
                                warmup_duration: 1s}
                  workload:
                    num_requests: 600
                    input_distribution: {type: gaussian, params: {mean: 600, std_dev: 150, min: 64, max: 1200}}
                    output_distribution: {type: gaussian, params: {mean: 64, std_dev: 16, min: 8, max: 128}}
                    prefix: {group: system, length: 256}
                    conversation: {probability: 1.0, turns: {type: uniform, params: {min: 4, max: 6}},
                                   think_time_us: {type: exponential, params: {mean: 500000}}, context_growth: accumulate}
                axes: [{name: rate, path: workload.aggregate_rate, values: [40, 60]}]
                seeds: [1]
                outputs: {scaling: true}
                """);
        Path features = tmp.resolve("features-out");
        assertEquals(0, Main.execute("sweep", sweep.toString(), "--output", features.toString(), "--report"));
        HeadlessChromium chromium = HeadlessChromium.find();
        JsonNode status = loadedStatus(chromium, features.resolve(SweepReport.DEFAULT_FILE));
        // one series (no policy axis) x 2 rates on each of the 3 tier and 3 autoscaling curves
        Map<String, Integer> drawn = drawnMarks(status);
        for (String id : List.of("kv-tiers-0", "kv-tiers-1", "kv-tiers-2", "autoscaling-0", "autoscaling-1", "autoscaling-2")) {
            assertEquals(2, drawn.get(id), id + " in " + drawn);
        }
        assertTrue(drawn.keySet().stream().noneMatch(id -> id.startsWith("pd-")), "no P/D panel without P/D: " + drawn);
        // the replica timelines: one step line per cell through every scaling/ row (ready; starting), and a
        // replica became ready after the start
        long scalingRows;
        try (Duck duck = new Duck()) {
            scalingRows = ((Number) duck.value("SELECT count(*) FROM " + Duck.parquet(features.resolve("scaling")))).longValue();
        }
        assertTrue(scalingRows > 4, "replicas came and went: " + scalingRows + " timeline rows");
        assertEquals((int) scalingRows, drawn.get("replicas-0"), "ready replicas in " + drawn);
        assertEquals((int) scalingRows, drawn.get("replicas-1"), "starting replicas in " + drawn);
        keepScreenshot(chromium, features.resolve(SweepReport.DEFAULT_FILE), 3700, "autoscaling-report.png");
    }

    @Test
    void thePdPanelDrawsTransfersPoolsAndGoodputPerGpuWhenTheSweepRanPd() throws Exception {
        // 3 fleets of 2 H100s (aggregated, P/D 1 + 1 over a 50 GB/s link, P/D 1 + 1 over a 2 GB/s link into a
        // 1,500-block decode cache, so transfers wait for bandwidth and blocks) x 2 rates, 120 requests per cell
        Path sweep = Files.writeString(tmp.resolve("pd.yaml"), """
                name: pd-report
                base:
                  deployment:
                    model: meta-llama/llama-3.1-8b-instruct
                    hardware: H100
                    architecture: pd
                    pd: {prefill: {replicas: 1}, decode: {replicas: 1}, transfer: {latency: 1ms, bandwidth: 50GB/s}}
                  engine: {max_num_seqs: 64, max_num_batched_tokens: 2048, block_size: 16}
                  policies: {routing: kv-router}
                  slo: {standard: {ttft_ms: 1000, tpot_ms: 15}}
                  workload:
                    num_requests: 120
                    input_distribution: {type: gaussian, params: {mean: 3000, std_dev: 800, min: 500, max: 6000}}
                    output_distribution: {type: gaussian, params: {mean: 100, std_dev: 30, min: 8, max: 200}}
                axes:
                  - name: fleet
                    values:
                      aggregated-2: {deployment.architecture: aggregated, deployment.pd: null, deployment.instances: 2,
                                     policies.routing: least-loaded}
                      pd-1p1d: {deployment.pd.decider: always}
                      pd-1p1d-slow: {deployment.pd.transfer.bandwidth: 2GB/s,
                                     deployment.pd.decode.engine: {total_kv_blocks: 1500}, engine.max_model_len: 8192}
                  - {name: rate, path: workload.aggregate_rate, values: [3, 6]}
                seeds: [1]
                outputs: {sessions: false}
                """);
        Path pdOut = tmp.resolve("pd-out");
        assertEquals(0, Main.execute("sweep", sweep.toString(), "--output", pdOut.toString(), "--report"));
        HeadlessChromium chromium = HeadlessChromium.find();
        Path html = pdOut.resolve(SweepReport.DEFAULT_FILE);
        JsonNode status = loadedStatus(chromium, html);
        Map<String, Integer> drawn = drawnMarks(status);
        // the 2 P/D fleets x 2 lines (mean and p99; prefill and decode) x 2 rates on the transfer, bandwidth-wait,
        // utilization and queueing curves, 2 x 1 line x 2 rates on the block-wait curve (the aggregated fleet has no
        // transfers and no pools: no line), and 3 fleets x 2 rates of goodput-per-GPU bars
        Map<String, Integer> pd = new LinkedHashMap<>();
        drawn.forEach((id, n) -> {
            if (id.startsWith("pd-")) {
                pd.put(id, n);
            }
        });
        assertEquals(Map.of("pd-0", 8, "pd-1", 8, "pd-2", 4, "pd-3", 8, "pd-4", 8, "pd-5", 6), pd);
        String caption = Files.readString(html);
        assertTrue(caption.contains("aggregated-2 aggregated (2 GPUs); pd-1p1d P/D (2 GPUs, 0 of 240 transfers waited for"
                + " decode blocks)"), "the caption names each fleet's architecture and GPUs");
        keepScreenshot(chromium, html, 4200, "pd-report.png");
    }

    @Test
    void thePlanPageDrawsTheFrontierAndTheCandidatesInChromium() throws Exception {
        // a plan of 2 GPUs x TP 1, 2 x 1-3 replicas (12 candidates), 100/300 chat requests at 12 req/s
        Path plan = Files.writeString(tmp.resolve("plan.yaml"), io.servesim.plan.TestPlans.small("plan-report", 3, 500,
                "{screen_requests: 100, confirm_requests: 300, keep: 2, capacity: {tolerance_rps: 1}}"));
        Path planOut = tmp.resolve("plan-out");
        assertEquals(0, Main.execute("plan", plan.toString(), "--output", planOut.toString()));
        HeadlessChromium chromium = HeadlessChromium.find();
        Path html = planOut.resolve("report.html");
        Map<String, Integer> drawn = drawnMarks(loadedStatus(chromium, html));
        // the frontier chart: every candidate with a measured capacity, those on the frontier once more on its line, and
        // the recommended one; the slack chart: every candidate run on the full trace at the target
        long measured;
        long onFrontier;
        long fullRuns;
        try (Duck duck = new Duck()) {
            String candidates = Duck.parquet(planOut.resolve("candidates"));
            measured = ((Number) duck.value("SELECT count(*) FROM " + candidates + " WHERE capacity_rps > 0")).longValue();
            onFrontier = ((Number) duck.value("SELECT count(*) FROM " + candidates + " WHERE on_frontier")).longValue();
            fullRuns = ((Number) duck.value("SELECT count(*) FROM " + candidates + " WHERE trace_requests = 300")).longValue();
        }
        assertTrue(onFrontier >= 1 && fullRuns >= 1, measured + " measured, " + fullRuns + " on the full trace");
        assertEquals(Map.of("frontier-0", (int) (measured + 1), "target-0", (int) fullRuns), drawn);
        assertTrue(Files.readString(html).contains("recommended: "), "the recommended candidate is named");
        keepScreenshot(chromium, html, 1500, "plan-report.png");
    }

    @Test
    void theReplayReportDrawsCdfsAndScattersInChromium() throws Exception {
        Path run = RepoFiles.realRun();
        HeadlessChromium chromium = HeadlessChromium.find();
        Path html = tmp.resolve("replay.html");
        assertEquals(0, Main.execute("replay-real", run.toString(), "--hardware", "RTXPRO6000", "--latency-model", "profiled",
                "--out", tmp.resolve("replay.parquet").toString(), "--report", html.toString()));
        JsonNode status = loadedStatus(chromium, html);
        // 4 metrics: a CDF of 2 curves x 103 quantiles and a scatter of the 300 requests each
        Map<String, Integer> drawn = drawnMarks(status);
        int cdf = 2 * LatencyCdfPanel.PROBABILITIES.length;
        assertEquals(Map.of("cdf-0", cdf, "cdf-1", cdf, "cdf-2", cdf, "cdf-3", cdf, "scatter-0", 300, "scatter-1", 300,
                "scatter-2", 300, "scatter-3", 300), drawn);
        assertTrue(Files.readString(html).contains("TTFT mean"), "the page holds the printed table");
    }

    /** At least 5% of the pixels are not white and they hold more than 50 colours: charts, not an empty page. */
    static void assertNotBlank(BufferedImage img) {
        long inked = 0;
        Set<Integer> colours = new HashSet<>();
        for (int y = 0; y < img.getHeight(); y += 2) {
            for (int x = 0; x < img.getWidth(); x += 2) {
                int rgb = img.getRGB(x, y) & 0xffffff;
                if (rgb != 0xffffff) {
                    inked++;
                    colours.add(rgb);
                }
            }
        }
        double share = inked / ((img.getWidth() / 2.0) * (img.getHeight() / 2.0));
        assertTrue(share > 0.05 && colours.size() > 50, "screenshot looks blank: " + share + " inked, " + colours.size() + " colours");
    }

    /**
     * Loads {@code html} in Chromium and returns its {@code #report-status}, after checking that the page logged
     * nothing to the console and finished drawing without a script error.
     */
    private JsonNode loadedStatus(HeadlessChromium chromium, Path html) throws Exception {
        HeadlessChromium.Page page = chromium.load(html, tmp.resolve("profile"));
        assertEquals(List.of(), page.console(), "the page logs nothing to the console");
        JsonNode status = JSON.readTree(page.text("report-status"));
        assertTrue(status.path("done").asBoolean() && status.path("errors").isEmpty(), status.toString());
        return status;
    }

    /** Marks drawn per chart id; every chart must have drawn exactly the marks its data holds. */
    private static Map<String, Integer> drawnMarks(JsonNode status) {
        Map<String, Integer> drawn = new LinkedHashMap<>();
        for (JsonNode c : status.path("chartMarks")) {
            assertEquals(c.path("expected").asInt(), c.path("drawn").asInt(), "marks drawn in " + c);
            drawn.put(c.path("id").asText(), c.path("drawn").asInt());
        }
        return drawn;
    }

    /** Screenshots {@code html} (1400 px wide), keeps it as target/report-screenshots/{@code name}, and checks it is not blank. */
    private void keepScreenshot(HeadlessChromium chromium, Path html, int heightPx, String name) throws Exception {
        Path png = tmp.resolve(name);
        chromium.screenshot(html, png, 1400, heightPx, tmp.resolve("profile"));
        Path kept = Files.createDirectories(Path.of("target", "report-screenshots")).resolve(name);
        Files.copy(png, kept, StandardCopyOption.REPLACE_EXISTING);
        assertNotBlank(ImageIO.read(png.toFile()));
    }
}
