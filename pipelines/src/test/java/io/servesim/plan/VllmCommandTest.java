package io.servesim.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The model {@code vllm serve} is given for a config's deployment.model. */
class VllmCommandTest {
    @Test
    void aBundledModelIsServedByItsHubIdAsTheHubSpellsIt() {
        // models.yaml: id meta-llama/llama-3.1-8b-instruct, source https://huggingface.co/meta-llama/Llama-3.1-8B-Instruct
        assertEquals("meta-llama/Llama-3.1-8B-Instruct", VllmCommand.served("meta-llama/llama-3.1-8b-instruct"));
        assertEquals("meta-llama/Llama-3.1-8B-Instruct", VllmCommand.served("META-LLAMA/Llama-3.1-8b-Instruct"));
        assertEquals("meta-llama/Llama-3.1-8B-Instruct", VllmCommand.served("llama-3.1-8b-instruct"), "the file stem");
    }

    @Test
    void anAliasAnUnknownIdAndAConfigPathAreServedAsWritten() {
        // meta-llama/Llama-3.1-8B is an alias of the instruct entry: another model on the Hub, kept as written
        assertEquals("meta-llama/Llama-3.1-8B", VllmCommand.served("meta-llama/Llama-3.1-8B"));
        assertEquals("acme/Giant-1T", VllmCommand.served("acme/Giant-1T"));
        assertEquals("models/mine", VllmCommand.served("models/mine/config.json"), "vLLM loads a local model from its folder");
    }
}
