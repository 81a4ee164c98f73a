package io.servesim.workload;

import io.servesim.workload.agentic.AgenticSpec;
import io.servesim.workload.arrival.ArrivalSpec;
import io.servesim.workload.dist.DistributionSpec;
import io.servesim.workload.multimodal.MultimodalSpec;
import io.servesim.workload.reasoning.ReasoningSpec;

/**
 * One workload client (BLIS workload spec v2 {@code ClientSpec}): who it is, how often it sends,
 * and what its requests look like.
 *
 * @param id                   client id (unique; names the client's random streams)
 * @param tenantId             tenant for fairness and quotas
 * @param sloClass             SLO class (realtime, interactive, standard, batch, ...)
 * @param rateFraction         share of the aggregate rate, normalised so the clients' shares sum to 1
 * @param arrival              arrival process
 * @param input                input (user part of the prompt) token distribution (null for agentic and multimodal
 *                             clients)
 * @param output               output token distribution (null for agentic clients)
 * @param prefix               shared system prompt prepended to every prompt, or null
 * @param priority             per-request priority distribution
 * @param streamingProbability probability that a request streams its response
 * @param conversation         multi-turn sessions, or null for single requests
 * @param startUs              lifecycle start: first send at or after this time
 * @param stopUs               lifecycle stop: no new arrivals (sessions) after this time; follow-up turns of running sessions continue
 * @param network              client-to-server network, or null for none
 * @param maxOutputTokens      output budget (max_tokens) carried by each request and capping its sampled output; 0 = none
 * @param agentic              agentic workflow sessions, or null; then input and output are null (each llm_call step has its own)
 * @param promptPool           a fixed pool of prompts sent in a cycle, or null; then input gives its questions' lengths
 *                             and output its outputs', each drawn once per prompt
 * @param reasoning            reasoning tokens leading each output, or null; its {@code multi_turn} is bound as
 *                             {@code conversation}
 * @param multimodal           user messages of text and image, audio, video items, or null; then input is null
 */
public record ClientSpec(String id, String tenantId, String sloClass, double rateFraction, ArrivalSpec arrival,
                         DistributionSpec input, DistributionSpec output, PrefixSpec prefix, DistributionSpec priority,
                         double streamingProbability, ConversationSpec conversation, long startUs, long stopUs,
                         NetworkSpec network, int maxOutputTokens, AgenticSpec agentic, PromptPoolSpec promptPool,
                         ReasoningSpec reasoning, MultimodalSpec multimodal) {
    /** This client with another rate share. */
    public ClientSpec withRateFraction(double fraction) {
        return new ClientSpec(id, tenantId, sloClass, fraction, arrival, input, output, prefix, priority,
                streamingProbability, conversation, startUs, stopUs, network, maxOutputTokens, agentic, promptPool,
                reasoning, multimodal);
    }

    /** This client with the network {@code n} ({@code network:}). */
    public ClientSpec withNetwork(NetworkSpec n) {
        return new ClientSpec(id, tenantId, sloClass, rateFraction, arrival, input, output, prefix, priority,
                streamingProbability, conversation, startUs, stopUs, n, maxOutputTokens, agentic, promptPool,
                reasoning, multimodal);
    }

    /** Whether the client has one session only (reasoning.multi_turn.single_session): its arrival process fires once. */
    boolean singleSession() {
        return reasoning != null && reasoning.multiTurn() != null && reasoning.multiTurn().singleSession();
    }

    /** The reasoning tokens of a request of {@code outputTokens} drawn from {@code rng}; 0 without reasoning (no draw). */
    int reasoningTokens(int outputTokens, java.util.SplittableRandom rng) {
        return reasoning == null ? 0 : reasoning.reasoningTokens(outputTokens, rng);
    }
}
