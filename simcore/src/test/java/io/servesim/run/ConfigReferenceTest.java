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

    /** A config of the bundled 8B model on an H100, to add sections to. */
    private static com.fasterxml.jackson.databind.node.ObjectNode deployed() {
        var tree = io.servesim.config.StrictJson.yaml().createObjectNode();
        tree.putObject("deployment").put("model", "meta-llama/llama-3.1-8b-instruct").put("hardware", "H100");
        return tree;
    }

    @Test
    void anEffectiveConfigSaysWhereEachValueCameFrom() {
        var tree = deployed();
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

    @Test
    void aPolicyNameSetByAFlagAndTheOtherSectionsAreResolved() {
        var tree = deployed();
        tree.putObject("cluster").put("routing_latency_us", "2ms");
        tree.putObject("policies").put("routing", "least-loaded").putObject("scheduler").put("name", "sjf");
        // --routing-policy sets policies.routing (the short form), which holds the name
        List<ConfigNode.Resolved> r = SimConfigLoader.effective(tree.deepCopy(), Path.of(""), Set.of("policies.routing"));
        List<String> paths = List.of("policies.routing.name", "policies.scheduler.name", "policies.admission.name",
                "cluster.routing_latency_us", "cluster.observability.default.mode", "autoscaling.enabled",
                "deployment.architecture");
        assertEquals(List.of("least-loaded FLAG", "sjf FILE", "always-admit DEFAULT", "2ms FILE", "immediate DEFAULT",
                "false DEFAULT", "aggregated DEFAULT"), paths.stream().map(p -> find(r, p)).toList());
    }

    @Test
    void everyPolicyKindHasASectionListingItsNameAndEveryPolicysParameters() {
        for (PolicyKind<?> kind : PolicyKind.ALL) {
            SettingsCatalog.Section s = SettingsCatalog.SECTIONS.stream().filter(x -> x.title().equals(kind.configPath()))
                    .findFirst().orElseThrow(() -> new AssertionError(kind.configPath() + " has no section"));
            assertEquals(kind.configPath() + ".name", s.settings().get(0).path());
            assertEquals(kind.flag(), s.settings().get(0).flagName());
            assertEquals(kind.registry().settings(), s.settings().subList(1, s.settings().size()));
        }
    }

    private static String find(List<ConfigNode.Resolved> resolved, String path) {
        return resolved.stream().filter(r -> r.path().equals(path)).map(r -> r.value() + " " + r.source()).findFirst()
                .orElseThrow(() -> new AssertionError(path + " not bound"));
    }
}
