package io.servesim.latency;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.servesim.config.ConfigException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class ModelCatalogTest {
    private final ModelCatalog catalog = ModelCatalog.builtIn();

    static java.util.List<String> bundledIds() {
        return ModelCatalog.builtIn().ids();
    }

    @ParameterizedTest
    @MethodSource("bundledIds")
    void everyBundledConfigParsesIntoAConsistentArchitecture(String id) {
        ModelArchitecture m = catalog.lookup(id, "deployment.model");
        assertTrue(m.parameterCount() > 1e9, id);
        assertTrue(m.kvBytesPerToken() > 0, id);
        assertTrue(m.linearFlopsPerToken() > 0, id);
        assertTrue(m.attention().heads() % m.attention().kvHeads() == 0, id);
        assertEquals(m.layers(), m.feedForward().denseLayers() + m.feedForward().moeLayers(), id);
        // active compute never exceeds all weights
        assertTrue(m.linearFlopsPerToken() / 2 <= m.parameterCount(), id);
    }

    @Test
    void sixteenModelsAreBundled() {
        // the 13 of inference-sim @ f90a1e3a model_configs/, Llama-2-70B, and LLMServingSim's Qwen3-32B and
        // Qwen3-30B-A3B-Instruct-2507 (sweeps/data/PROVENANCE.md)
        assertEquals(16, catalog.ids().size());
    }

    @Test
    void lookupAcceptsCaseInsensitiveIdsStemsAndAliases() {
        assertEquals("qwen/qwen3-14b", catalog.lookup("Qwen/Qwen3-14B", "m").name());
        assertEquals("meta-llama/llama-3.1-8b-instruct", catalog.lookup("llama-3.1-8b-instruct", "m").name());
        assertEquals("meta-llama/llama-3.1-8b-instruct", catalog.lookup("meta-llama/Llama-3.1-8B", "m").name());
    }

    @Test
    void unknownModelNamesThePathAndListsBundledIds() {
        ConfigException e = assertThrows(ConfigException.class, () -> catalog.lookup("acme/giant-1t", "deployment.model"));
        assertEquals("deployment.model", e.problems().get(0).path());
        assertTrue(e.getMessage().contains("unknown model 'acme/giant-1t'; bundled: codellama/codellama-34b-instruct-hf, "),
                e.getMessage());
        assertTrue(e.getMessage().contains("qwen/qwen3-30b-a3b"), e.getMessage());
    }

    @Test
    void readsAnArbitraryConfigJson(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("tiny.config.json");
        Files.writeString(file, "{\"num_hidden_layers\": 2, \"hidden_size\": 64, \"num_attention_heads\": 4,"
                + " \"intermediate_size\": 128, \"vocab_size\": 100, \"tie_word_embeddings\": true, \"torch_dtype\": \"float32\"}");
        ModelArchitecture m = ModelCatalog.read(file, "deployment.model");
        assertEquals("tiny", m.name());
        assertEquals(4, m.attention().kvHeads(), "KV heads default to attention heads");
        assertEquals(16, m.attention().headDim(), "head_dim defaults to hidden / heads");
        assertEquals(4, m.dtypeBytes());
        // embeddings 6,400 (tied LM head adds nothing); per layer 4 x 64 x 64 + 3 x 64 x 128 + 128 = 41,088;
        // 2 layers 82,176; final norm 64 -> 88,640
        assertEquals(88_640, m.parameterCount());
    }

    @Test
    void aConfigWithoutLayersFailsAtThePath(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("broken.json");
        Files.writeString(file, "{\"hidden_size\": 64, \"num_attention_heads\": 4, \"vocab_size\": 100, \"intermediate_size\": 128}");
        ConfigException e = assertThrows(ConfigException.class, () -> ModelCatalog.read(file, "deployment.model"));
        assertEquals("deployment.model", e.problems().get(0).path());
        assertTrue(e.getMessage().contains("num_hidden_layers"), e.getMessage());
    }
}
