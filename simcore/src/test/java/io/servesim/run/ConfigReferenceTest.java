package io.servesim.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.servesim.config.ConfigNode;
import io.servesim.config.Setting;
import io.servesim.testing.RepoFiles;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * {@code docs/config-reference.md} is the settings catalog rendered (regenerate with {@code -Dservesim.docs.write=true}),
 * every declaration is complete, and an effective config says where each value came from.
 */
class ConfigReferenceTest {
    private static final Path DOC = RepoFiles.path("docs/config-reference.md");

    @Test
    void theReferenceIsTheCatalogRendered() throws Exception {
        String rendered = ConfigReference.markdown();
        if (Boolean.getBoolean("servesim.docs.write")) {
            Files.writeString(DOC, rendered);
        }
        assertEquals(rendered, Files.readString(DOC), "docs/config-reference.md is stale: regenerate it (see its header)");
    }

    @Test
    void everySettingIsDocumentedAndItsFlagIsAFlag() {
        for (Setting<?> s : SettingsCatalog.ALL) {
            assertFalse(s.doc().isBlank(), s.path());
            assertTrue(s.defaultText() != null, s.path() + " has neither a default nor says how it is derived");
            assertTrue(s.flagName() == null || s.flagName().matches("--[a-z0-9-]+"), s.path() + ": " + s.flagName());
            assertEquals(SettingsCatalog.byFlag(String.valueOf(s.flagName())).orElse(s), s);
        }
    }

    @Test
    void anEffectiveConfigSaysWhereEachValueCameFrom() {
        var tree = io.servesim.config.StrictJson.yaml().createObjectNode();
        tree.putObject("deployment").put("model", "meta-llama/llama-3.1-8b-instruct").put("hardware", "H100");
        tree.putObject("engine").put("max_num_seqs", 64).put("block_size", 32);
        tree.putObject("workload").put("scenario", "chat").put("num_requests", 50);
        List<ConfigNode.Resolved> r = SimConfigLoader.effective(tree.deepCopy(), Path.of(""),
                Set.of("engine.block_size", "workload.num_requests"));
        assertEquals("64 FILE", find(r, "engine.max_num_seqs"));
        assertEquals("32 FLAG", find(r, "engine.block_size"));
        assertEquals("2048 DEFAULT", find(r, "engine.max_num_batched_tokens"));
        assertEquals("the model's max_position_embeddings DERIVED", find(r, "engine.max_model_len"));
        // the workload's settings, bound on their own tree (here the chat scenario's), are the document's
        assertEquals("chat FILE", find(r, "workload.scenario"));
        assertEquals("5.53 FILE", find(r, "workload.aggregate_rate"));
        assertEquals("50 FLAG", find(r, "workload.num_requests"));
        assertEquals("1.072 FILE", find(r, "workload.arrival.cv"));
        assertEquals("1 DEFAULT", find(r, "workload.streaming_probability"));
        assertEquals("the run's seed DERIVED", find(r, "workload.seed"));
    }

    private static String find(List<ConfigNode.Resolved> resolved, String path) {
        return resolved.stream().filter(r -> r.path().equals(path)).map(r -> r.value() + " " + r.source()).findFirst()
                .orElseThrow(() -> new AssertionError(path + " not bound"));
    }
}
