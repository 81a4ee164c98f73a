package io.servesim.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.servesim.config.ConfigException;
import io.servesim.config.StrictJson;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code engine.speculative.method: mtp} drafts with the target checkpoint's own multi-token-prediction layers (vLLM's
 * SpeculativeConfig reads {@code num_nextn_predict_layers}): refused for a model without them (Llama-3.1-8B, which had
 * silently run as EAGLE), run for the same architecture given one such layer.
 */
class MtpTargetTest {
    private static final String CONFIG = """
            deployment: {model: %s, hardware: H100, latency_model: roofline}
            engine: {speculative: {method: mtp, num_speculative_tokens: 2, acceptance_rate: 0.7}}
            workload: {scenario: chat, num_requests: 5}
            """;

    private static RunPlan plan(String model, Path dir) throws Exception {
        return RunPlan.prepare(SimConfigLoader.bind(StrictJson.yaml().readTree(CONFIG.formatted(model)), dir));
    }

    @Test
    void aTargetWithoutMtpLayersIsRefusedAndOneWithThemRuns(@TempDir Path tmp) throws Exception {
        ConfigException e = assertThrows(ConfigException.class, () -> plan("meta-llama/llama-3.1-8b-instruct", tmp));
        assertTrue(e.getMessage().contains("engine.speculative.method: mtp needs the target's own multi-token-prediction"
                + " layers, and meta-llama/llama-3.1-8b-instruct has none"), e.getMessage());
        ObjectNode llama = (ObjectNode) StrictJson.json().readTree(
                Path.of("..", "sweeps", "data", "models", "llama-3.1-8b-instruct.config.json").toFile());
        llama.put("num_nextn_predict_layers", 1);
        Files.writeString(tmp.resolve("with-mtp.config.json"), llama.toString());
        RunPlan plan = plan("with-mtp.config.json", tmp);
        assertEquals(5, plan.run(r -> { }).count("completed"));
    }
}
