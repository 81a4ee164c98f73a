package io.servesim.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.servesim.config.ConfigException;
import io.servesim.config.StrictJson;
import io.servesim.latency.KvCapacity;
import io.servesim.latency.ModelCatalog;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * How a deployment resolves: a model's config.json path is relative to the config's folder (as trace and GPU files
 * are); {@code auto} takes the trained coefficients of a bundled model of the same architecture when the model has
 * none, and says whose; and {@code gpu_memory_utilization} scales a trained KV capacity instead of being ignored.
 */
class DeploymentResolutionTest {
    private static final String WORKLOAD = """
            workload: {aggregate_rate: 1, num_requests: 5,
                       input_distribution: {type: constant, params: {value: 100}},
                       output_distribution: {type: constant, params: {value: 10}}}
            """;

    private static RunPlan prepare(String yaml, Path baseDir, Set<String> fromFlags) throws Exception {
        return RunPlan.prepare(SimConfigLoader.bind(StrictJson.yaml().readTree(yaml + "\n" + WORKLOAD), baseDir, fromFlags));
    }

    @Test
    void aConfigJsonPathIsRelativeToTheConfigsFolder(@TempDir Path dir) throws Exception {
        Path models = Files.createDirectories(dir.resolve("configs").resolve("models"));
        try (var in = getClass().getResourceAsStream("/io/servesim/latency/models/llama-2-7b-hf.config.json")) {
            Files.copy(in, models.resolve("llama.config.json"));
        }
        // the config lives in dir/configs and names models/llama.config.json: found there, whatever the working directory
        RunPlan plan = prepare("deployment: {model: models/llama.config.json, hardware: H100}", dir.resolve("configs"), Set.of());
        assertEquals("roofline", plan.latencyModel().name());
        assertEquals(models.resolve("llama.config.json").toString(), plan.config().latency().modelId());
        // the same path from the command line (--model, --set) is relative to the working directory: not found there
        ConfigException e = assertThrows(ConfigException.class, () -> prepare(
                "deployment: {model: models/llama.config.json, hardware: H100}", dir.resolve("configs"),
                Set.of("deployment.model")));
        assertTrue(e.getMessage().contains("deployment.model"), e.getMessage());
    }

    @Test
    void autoTakesTheCoefficientsOfTheSameArchitectureAndSaysWhose() throws Exception {
        // Mixtral-8x7B-v0.1 has no entry of its own; its Instruct model (same config shape) is trained on H100 at TP 2
        RunPlan mixtral = prepare("deployment: {model: mistralai/mixtral-8x7b-v0.1, hardware: H100, tp: 2}\n"
                + "engine: {max_model_len: 4096}", Path.of("."), Set.of());
        assertTrue(mixtral.latencyModel().describe().startsWith("blackbox mistralai/mixtral-8x7b-instruct-v0.1 on H100 TP2"
                + " (trained, BLIS defaults.yaml; taken for mistralai/mixtral-8x7b-v0.1, same architecture)"),
                mixtral.latencyModel().describe());
        assertEquals(List.of("deployment.model: no trained coefficients for mistralai/mixtral-8x7b-v0.1 on H100 TP2; took"
                + " those of mistralai/mixtral-8x7b-instruct-v0.1, a bundled model of the same architecture (layers, widths,"
                + " heads, experts and dtypes)"), mixtral.warnings());
        // Llama-3.1-70B-Instruct at TP 4 on H100 takes Llama-3.3-70B-Instruct's; at TP 2 nothing of its shape is trained
        assertTrue(prepare("deployment: {model: meta-llama/llama-3.1-70b-instruct, hardware: H100, tp: 4}\n"
                + "engine: {max_model_len: 4096}", Path.of("."), Set.of()).latencyModel().describe()
                .startsWith("blackbox meta-llama/llama-3.3-70b-instruct on H100 TP4"));
        assertEquals("roofline", prepare("deployment: {model: meta-llama/llama-3.1-70b-instruct, hardware: H100, tp: 2}\n"
                + "engine: {max_model_len: 4096}", Path.of("."), Set.of()).latencyModel().name());
    }

    @Test
    void gpuMemoryUtilizationScalesTheTrainedKvCapacity() throws Exception {
        String qwen = "deployment: {model: qwen/qwen2.5-7b-instruct, hardware: H100}\n";
        RunPlan atDefault = prepare(qwen, Path.of("."), Set.of());
        assertEquals(67659, atDefault.engineConfig().totalKvBlocks()); // the trained entry's total_kv_blocks
        RunPlan at075 = prepare(qwen + "engine: {gpu_memory_utilization: 0.75}", Path.of("."), Set.of());
        // GPU-memory estimates (KvCapacity, 2,048 batched tokens, 256 sequences): 51,818 blocks at 0.75 and 65,861 at
        // 0.9, so the trained 67,659 scale to 67,659 x 51,818 / 65,861 = 53,232.6 -> 53,233
        var arch = ModelCatalog.builtIn().lookup("qwen/qwen2.5-7b-instruct", "x");
        var h100 = io.servesim.latency.GpuCatalog.builtIn().lookup("H100", "x");
        assertEquals(51818, KvCapacity.estimate(arch, h100, 1, 16, 0.75, 2048, 256, "x").totalBlocks());
        assertEquals(65861, KvCapacity.estimate(arch, h100, 1, 16, 0.9, 2048, 256, "x").totalBlocks());
        assertEquals(53233, at075.engineConfig().totalKvBlocks());
        assertTrue(at075.kvCapacitySource().contains("scaled to 0.75"), at075.kvCapacitySource());
        // explicit coefficients have no capacity to scale; a calibrated file's utilization is unknown: refused with why
        ConfigException e = assertThrows(ConfigException.class, () -> prepare("deployment: {coefficients: {alpha: [0, 0, 0],"
                + " beta: [1, 1, 1]}}\nengine: {gpu_memory_utilization: 0.75}", Path.of("."), Set.of()));
        assertTrue(e.getMessage().contains("engine.total_kv_blocks: required"), e.getMessage());
    }
}
