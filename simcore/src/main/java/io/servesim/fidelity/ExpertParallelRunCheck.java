package io.servesim.fidelity;

import io.servesim.latency.LatencyKind;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * The expert-parallel reference case of {@code validate-latency}: the shipped real vLLM run of Qwen3-30B-A3B with
 * {@code data_parallel_size: 2, enable_expert_parallel: true} on two RTX PRO 6000s ({@link #RUN} under the data
 * directory, from casys-kaist/LLMServingSim @ 5daddb2) replayed as two ranks in lockstep, its TTFT, TPOT and E2E
 * errors (means and p99) under the roofline and the profiled model. Nothing is fitted to the run.
 */
public final class ExpertParallelRunCheck {
    /** The run, under the data directory. */
    public static final String RUN = "validation/vllm_rtxpro6000_qwen3_30b_a3b_dp2_ep";
    private static final String GPU = "RTXPRO6000";
    private static final List<String> MODELS = List.of(LatencyKind.ROOFLINE.configName(), LatencyKind.PROFILED.configName());
    private static final String[][] COLUMNS = {{"TTFT", "mean"}, {"TPOT", "mean"}, {"E2E", "mean"}, {"TTFT", "p99"},
            {"TPOT", "p99"}, {"E2E", "p99"}};

    private ExpertParallelRunCheck() {
    }

    /** The table of errors on the run under {@code data}, or "" when the data directory does not hold it. */
    public static String render(Path data) {
        Path dir = data.resolve(RUN);
        if (!Files.isDirectory(dir)) {
            return "";
        }
        RealRun run = RealRun.read(dir);
        StringBuilder b = new StringBuilder();
        b.append("expert-parallel MoE run (").append(RUN).append(": Qwen3-30B-A3B, data_parallel_size 2 +"
                + " enable_expert_parallel on 2 x ").append(GPU).append("): error % of sim vs real\n");
        b.append(String.format(Locale.ROOT, "%-14s", "latency model"));
        for (String[] c : COLUMNS) {
            b.append(String.format(Locale.ROOT, "%12s", c[0] + " " + c[1]));
        }
        b.append('\n');
        for (String model : MODELS) {
            ComparisonReport r = Replay.run(run, ReplaySetup.resolve(run,
                    new ReplayOptions(model, GPU, null, null, null))).report();
            b.append(String.format(Locale.ROOT, "%-14s", model));
            for (String[] c : COLUMNS) {
                b.append(String.format(Locale.ROOT, "%+11.1f%%", r.line(c[0], c[1]).diffPercent()));
            }
            b.append('\n');
        }
        return b.toString();
    }
}
