package io.servesim.workload.inferenceperf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.servesim.config.ConfigNode;
import io.servesim.metrics.RequestRecord;
import io.servesim.run.LinearLatency;
import io.servesim.run.Runs;
import io.servesim.workload.GeneratorSpec;
import io.servesim.workload.Stage;
import io.servesim.workload.WorkloadSpec;
import io.servesim.workload.Yaml;
import io.servesim.workload.arrival.ArrivalSpec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** inference-perf config files read as workloads: their load stages and shared_prefix or random data. */
class InferencePerfConfigTest {
    private static final Path EXAMPLES = Path.of("src", "test", "resources", "inference-perf");

    @TempDir
    Path dir;

    private JsonNode translated(String inferencePerfYaml) throws IOException {
        Path f = dir.resolve("ip.yml");
        Files.writeString(f, inferencePerfYaml);
        ConfigNode sink = ConfigNode.root(null);
        JsonNode tree = InferencePerfConfig.read(f, sink, "workload.inference_perf");
        sink.throwIfProblems();
        return tree;
    }

    private List<String> problems(String inferencePerfYaml) throws IOException {
        Files.writeString(dir.resolve("ip.yml"), inferencePerfYaml);
        return Yaml.problems("inference_perf: ip.yml\n", dir).stream()
                .map(p -> p.replace(" (in inference-perf config " + dir.resolve("ip.yml") + ")", "")).toList();
    }

    /**
     * inference-perf's own examples/vllm/config-shared-prefix.yml: constant load, 1 req/s for 30 s then 2 req/s for
     * 30 s, 15 s apart; 10 system prompts of 100 tokens x 10 questions of 50 tokens, 50 output tokens. The constant load
     * sends exactly 30 then 60 requests, each stage's last at its end (spread); the pool holds 100 prompts, so the 90
     * requests are 90 different prompts, 100 + 50 tokens each.
     */
    @Test
    void inferencePerfsSharedPrefixExampleLoadsAsWritten() {
        GeneratorSpec g = assertInstanceOf(GeneratorSpec.class,
                Yaml.workload("inference_perf: config-shared-prefix.yml\n", EXAMPLES, 0));
        assertEquals(List.of(new Stage(1, 30_000_000), new Stage(2, 30_000_000)), g.stages());
        assertEquals(15_000_000, g.stageIntervalUs());
        var c = g.clients().get(0);
        assertInstanceOf(ArrivalSpec.Spread.class, c.arrival());
        assertEquals(100, c.promptPool().size());
        assertEquals(0.0, c.streamingProbability());
        List<RequestRecord> rs = run(g);
        assertEquals(90, rs.size());
        assertEquals(30_000_000, rs.get(29).arrivalUs());
        assertEquals(90, rs.stream().map(r -> r.inputTokens()).filter(n -> n == 150).count());
        long drained = rs.subList(0, 30).stream().mapToLong(RequestRecord::completionUs).max().orElseThrow();
        assertEquals(drained + 15_000_000 + 30_000_000, rs.get(89).arrivalUs());
    }

    private static List<RequestRecord> run(WorkloadSpec spec) {
        return Runs.run(Runs.engine(100_000), LinearLatency.steps(1000, 10, 100), "fcfs", "constant", spec.open(1, 0), 0)
                .records().stream().sorted(Comparator.comparingLong(RequestRecord::requestId)).toList();
    }

    /** Its distributions example: question_len is skew_normal, which servesim has no distribution for. */
    @Test
    void aDistributionServesimLacksIsRefusedAtItsKey() {
        List<String> ps = assertThrowsProblems("inference_perf: config-shared-prefix-distributions.yml\n");
        assertEquals(1, ps.size());
        assertTrue(ps.get(0).startsWith("workload.inference_perf: data.shared_prefix.question_len.type: 'skew_normal' is"
                + " not modelled: servesim has no skew_normal distribution; use normal, lognormal, uniform or fixed (in"
                + " inference-perf config "), ps.get(0));
    }

    private static List<String> assertThrowsProblems(String yaml) {
        return Yaml.problems(yaml, EXAMPLES);
    }

    /**
     * The translation, key by key. Poisson load; interval defaults to 1 s. Lengths: 7 is constant; normal keeps mean and
     * std_dev and clips to min and max (defaults 10 and 1024); lognormal mean 150 and std_dev 60 has sigma =
     * sqrt(ln(1 + (60/150)^2)) = sqrt(ln 1.16) = sqrt(0.1484200) = 0.3852532; fixed is int(mean) = 12 unclipped; uniform keeps its bounds.
     */
    @Test
    void translatesLoadAndDataKeyByKey() throws IOException {
        JsonNode w = translated("load: {type: poisson, base_seed: 9, stages: [{rate: 3.5, duration: 20}]}\n"
                + "api: {type: chat, streaming: true}\n"
                + "data: {type: shared_prefix, shared_prefix: {num_groups: 4, num_users_per_system_prompt: 5,"
                + " system_prompt_len: 7, question_len: {mean: 300, std_dev: 50},"
                + " output_len: {type: lognormal, mean: 150, std_dev: 60, min: 1, max: 4096}}}\n");
        assertEquals(Yaml.tree("""
                {version: "2", arrival: {process: poisson}, stage_interval_us: 1000000, seed: 9,
                 stages: [{rate: 3.5, duration_us: 20000000}],
                 prompt_pool: {system_prompts: 4, questions_per_system_prompt: 5,
                               system_prompt_distribution: {type: constant, params: {value: 7}}},
                 input_distribution: {type: gaussian, params: {mean: 300.0, std_dev: 50.0, min: 10, max: 1024}},
                 output_distribution: {type: lognormal, params: {mean: 150.0, sigma: 0.38525317015992644, min: 1, max: 4096}},
                 streaming_probability: 1.0}""").toString(), w.toString());
        JsonNode random = translated("load: {stages: [{rate: 1, duration: 5}]}\n"
                + "data: {type: random, input_distribution: {type: uniform, min: 20, max: 40, total_count: 300},"
                + " output_distribution: {type: fixed, mean: 12.7, total_count: 200}}\n");
        assertEquals("{\"type\":\"uniform\",\"params\":{\"min\":20,\"max\":40}}", random.get("input_distribution").toString());
        assertEquals("{\"type\":\"constant\",\"params\":{\"value\":12}}", random.get("output_distribution").toString());
        assertEquals(200, random.get("num_requests").asLong(), "the fewer of the two total_counts");
        assertEquals("spread", random.at("/arrival/process").asText());
    }

    @Test
    void whatServesimDoesNotModelIsRefusedAtItsKey() throws IOException {
        String stages = "  stages: [{rate: 1, duration: 5}]\n";
        assertEquals(List.of("workload.inference_perf: load.type: 'concurrent' is not modelled: servesim reads the"
                + " constant and poisson load types (replay a trace with workload.trace instead)"),
                problems("load:\n  type: concurrent\n" + stages + "data: {type: shared_prefix}\n"));
        assertEquals(List.of("workload.inference_perf: load.sweep: not modelled: it probes a live server for its saturation"
                + " rate; write the stages out, or use servesim capacity to find the sustainable rate; remove it"),
                problems("load:\n  sweep: {type: linear}\n" + stages + "data: {type: shared_prefix}\n"));
        assertEquals(List.of("workload.inference_perf: load.worker_max_concurrency: not modelled: servesim's clients send"
                + " open loop, without the benchmark's cap of num_workers x worker_max_concurrency requests in flight;"
                + " remove it"), problems("load:\n  worker_max_concurrency: 8\n" + stages + "data: {type: shared_prefix}\n"));
        assertEquals(List.of("workload.inference_perf: data.type: 'shareGPT' is not modelled: servesim reads the"
                + " shared_prefix, random and synthetic data types (datasets have no lengths without their files;"
                + " replay a trace with workload.trace instead)"), problems("load:\n" + stages + "data: {type: shareGPT}\n"));
        assertEquals(List.of("workload.inference_perf: load.stages: required: inference-perf runs no load without stages"
                + " [{rate, duration}]"), problems("load: {type: constant}\ndata: {type: shared_prefix}\n"));
        assertEquals(List.of("workload.inference_perf: load.stages[0].rate: must be a number in (0, 1000000] requests/s, got -1 (a stage at rate 0"
                + " sends nothing; a million requests a second is beyond any serving fleet)"),
                problems("load: {stages: [{rate: -1, duration: 10}]}\ndata: {type: shared_prefix}\n"));
        assertEquals(List.of("workload.inference_perf: data.shared_prefix.enable_multi_turn_chat: multi-turn chat over the"
                + " pool is not modelled; remove it"),
                problems("load:\n" + stages + "data: {type: shared_prefix, shared_prefix: {enable_multi_turn_chat: true}}\n"));
        assertEquals(List.of("workload.inference_perf: data.input_distribution.type: the random and synthetic data types"
                + " shift a lognormal by min (generate_distribution), which servesim's lognormal cannot; use normal or"
                + " uniform"), problems("load:\n" + stages + "data: {type: random, input_distribution: {type: lognormal},"
                + " output_distribution: {type: fixed, mean: 5}}\n"));
        assertTrue(problems("load:\n" + stages + "data: {type: shared_prefix}\nloadd: {}\n").get(0)
                .startsWith("workload.inference_perf: loadd: unknown key; valid keys here: api, circuit_breakers, data,"));
    }

    @Test
    void besideTheFileOnlyRunLimitsAndSeed() throws IOException {
        Files.writeString(dir.resolve("ip.yml"), "load: {stages: [{rate: 1, duration: 5}]}\ndata: {type: shared_prefix}\n");
        assertEquals(List.of("workload.aggregate_rate: not beside inference_perf, whose file describes the workload;"
                + " beside it only version, seed, num_requests, horizon_us"),
                Yaml.problems("inference_perf: ip.yml\naggregate_rate: 3\n", dir));
        GeneratorSpec g = (GeneratorSpec) Yaml.workload("inference_perf: ip.yml\nnum_requests: 3\nseed: 5\n", dir, 0);
        assertEquals(3, g.numRequests());
        assertEquals(5, g.seed().orElseThrow());
    }
}
