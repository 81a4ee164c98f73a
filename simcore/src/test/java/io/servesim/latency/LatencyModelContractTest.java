package io.servesim.latency;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.Locale;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The {@link LatencyModel} contract, checked over every {@link LatencyKind} (each resolved for a
 * bundled model and GPU: {@link #example} is an exhaustive switch, so a new kind does not compile
 * until it has one) and over every implementation's main configurations.
 */
class LatencyModelContractTest {

    /** A spec of {@code kind} for bundled models and GPUs that resolves. */
    private static LatencySpec example(LatencyKind kind) {
        String name = kind.configName();
        return switch (kind) {
            case AUTO, BLACKBOX -> new LatencySpec(name, "meta-llama/llama-3.1-8b-instruct", "H100", 1, null);
            case ROOFLINE -> new LatencySpec(name, "qwen/qwen3-14b", "L40S", 1, null);
            case PROFILED -> new LatencySpec(name, "meta-llama/llama-3.1-8b", "RTXPRO6000", 1, null);
        };
    }

    static Stream<Arguments> kinds() {
        return Arrays.stream(LatencyKind.values()).map(k -> Arguments.of(Named.of(k.configName(), k)));
    }

    static Stream<Arguments> models() {
        Stream<Arguments> everyKind = Arrays.stream(LatencyKind.values())
                .map(k -> model("kind " + k.configName(), () -> resolve(example(k))));
        return Stream.concat(everyKind, configurations());
    }

    @ParameterizedTest
    @MethodSource("kinds")
    void everyKindResolvesToItsModel(LatencyKind kind) {
        ResolvedLatency r = LatencyModels.resolve(example(kind), "deployment");
        assertEquals(kind.isConcrete() ? kind.configName() : LatencyKind.BLACKBOX.configName(), r.model().name());
        assertEquals(kind, LatencyKind.find(kind.configName().toUpperCase(Locale.ROOT)).orElseThrow());
        assertTrue(LatencyKind.names().contains(kind.configName()));
        assertEquals(kind.isConcrete(), LatencyKind.concreteNames().contains(kind.configName()));
    }

    private static Stream<Arguments> configurations() {
        return Stream.of(
                model("blackbox trained llama-3.1-8b/H100/TP1",
                        () -> resolve(new LatencySpec("blackbox", "meta-llama/llama-3.1-8b-instruct", "H100", 1, null))),
                model("blackbox explicit",
                        () -> resolve(new LatencySpec("blackbox", null, null, 1,
                                new BlackboxCoefficients(5000, 2, 100, 6000, 20, 5)))),
                model("roofline llama-3.1-8b/H100/TP1",
                        () -> resolve(new LatencySpec("roofline", "meta-llama/llama-3.1-8b-instruct", "H100", 1, null))),
                model("roofline llama-3.1-8b/H100/TP2",
                        () -> resolve(new LatencySpec("roofline", "meta-llama/llama-3.1-8b-instruct", "H100", 2, null))),
                model("roofline MoE qwen3-30b-a3b/H100/TP1",
                        () -> resolve(new LatencySpec("roofline", "qwen/qwen3-30b-a3b", "H100", 1, null))),
                model("roofline MoE mixtral-8x7b/A100/TP4",
                        () -> resolve(new LatencySpec("roofline", "mistralai/mixtral-8x7b-v0.1", "A100", 4, null))),
                model("roofline MLA deepseek-v2-lite/RTXPRO6000/TP2",
                        () -> resolve(new LatencySpec("roofline", "deepseek-ai/deepseek-v2-lite", "RTXPRO6000", 2, null))),
                model("profiled LLMServingSim llama-3.1-8b/RTXPRO6000/TP1",
                        () -> resolve(new LatencySpec("profiled", "meta-llama/llama-3.1-8b", "RTXPRO6000", 1, null))),
                model("profiled Splitwise llama-2-70b/H100/TP4",
                        () -> resolve(new LatencySpec("profiled", "meta-llama/llama-2-70b-hf", "H100", 4, null))),
                model("speculative eagle k=3 over roofline llama-3.1-8b/H100/TP1",
                        () -> new SpeculativeLatency(resolve(new LatencySpec("roofline", "meta-llama/llama-3.1-8b-instruct",
                                "H100", 1, null)), SpeculativeLatency.Drafter.DECODER_LAYER, 3, 32, null, "eagle")),
                model("speculative draft llama-3.1-8b k=4 over roofline llama-3.1-70b/H100/TP4",
                        () -> new SpeculativeLatency(resolve(new LatencySpec("roofline", "meta-llama/llama-3.1-70b-instruct",
                                "H100", 4, null)), SpeculativeLatency.Drafter.DRAFT_MODEL, 4, 80, RooflineModel.sharded(
                                ModelCatalog.builtIn().lookup("meta-llama/llama-3.1-8b-instruct", "x"),
                                GpuCatalog.builtIn().lookup("H100", "x"), 4, "x"), "draft")),
                model("speculative ngram k=5 over blackbox trained llama-3.1-8b/H100/TP1",
                        () -> new SpeculativeLatency(resolve(new LatencySpec("blackbox", "meta-llama/llama-3.1-8b-instruct",
                                "H100", 1, null)), SpeculativeLatency.Drafter.CPU_LOOKUP, 5, 0, null, "ngram")),
                model("multimodal encoder by the vision roofline over roofline llama-4-scout/H100/TP2",
                        () -> new EncoderLatency(resolve(new LatencySpec("roofline", SCOUT, "H100", 2, null)),
                                new EncoderCost.VisionRoofline(ModelCatalog.builtIn().lookup(SCOUT, "x").vision(), 5120,
                                        GpuCatalog.builtIn().lookup("H100", "x"), 2, RooflineConstants.bundled(), "scout"))),
                model("multimodal encoder at 12 us per token over blackbox trained llama-3.1-8b/H100/TP1",
                        () -> new EncoderLatency(resolve(new LatencySpec("blackbox", "meta-llama/llama-3.1-8b-instruct",
                                "H100", 1, null)), new EncoderCost.PerToken(12))));
    }

    private static final String SCOUT = "redhatai/llama-4-scout-17b-16e-instruct-fp8-dynamic";

    private static Arguments model(String name, Supplier<LatencyModel> factory) {
        return Arguments.of(Named.of(name, factory));
    }

    private static LatencyModel resolve(LatencySpec spec) {
        return LatencyModels.resolve(spec, "deployment").model();
    }

    private static StepShape shape(int prefillTokens, int prefillContext, int decodeSeqs, int decodeContext) {
        StepShape s = new StepShape();
        if (prefillTokens > 0) {
            s.addPrefill(prefillTokens, prefillContext);
        }
        for (int i = 0; i < decodeSeqs; i++) {
            s.addDecode(decodeContext);
        }
        return s;
    }

    @ParameterizedTest
    @MethodSource("models")
    void emptyStepTakesAtLeastOneMicrosecond(Supplier<LatencyModel> factory) {
        assertTrue(factory.get().stepTimeUs(new StepShape()) >= 1);
    }

    @ParameterizedTest
    @MethodSource("models")
    void nonDecreasingInPrefillTokens(Supplier<LatencyModel> factory) {
        LatencyModel m = factory.get();
        for (int decodeSeqs : new int[] {0, 8}) {
            long previous = 0;
            for (int tokens = 0; tokens <= 8192; tokens = tokens < 16 ? tokens + 1 : tokens * 2) {
                long t = m.stepTimeUs(shape(tokens, 1000, decodeSeqs, 500));
                assertTrue(t >= previous, tokens + " prefill tokens: " + t + " < " + previous);
                previous = t;
            }
        }
    }

    @ParameterizedTest
    @MethodSource("models")
    void nonDecreasingInDecodeSequences(Supplier<LatencyModel> factory) {
        LatencyModel m = factory.get();
        for (int prefill : new int[] {0, 512}) {
            long previous = 0;
            for (int seqs = 0; seqs <= 512; seqs++) {
                long t = m.stepTimeUs(shape(prefill, 0, seqs, 300));
                assertTrue(t >= previous, seqs + " decode seqs: " + t + " < " + previous);
                previous = t;
            }
        }
    }

    @ParameterizedTest
    @MethodSource("models")
    void nonDecreasingInContext(Supplier<LatencyModel> factory) {
        LatencyModel m = factory.get();
        long previousDecode = 0;
        long previousPrefill = 0;
        for (int context = 0; context <= 131072; context = context < 64 ? context + 1 : context * 2) {
            long decode = m.stepTimeUs(shape(0, 0, 32, context));
            long prefill = m.stepTimeUs(shape(256, context, 0, 0));
            assertTrue(decode >= previousDecode, "decode context " + context);
            assertTrue(prefill >= previousPrefill, "prefill context " + context);
            previousDecode = decode;
            previousPrefill = prefill;
        }
    }

    /** A verify pass over more draft tokens never takes less time (speculative decoding's extra query tokens). */
    @ParameterizedTest
    @MethodSource("models")
    void nonDecreasingInDraftTokens(Supplier<LatencyModel> factory) {
        LatencyModel m = factory.get();
        for (int prefill : new int[] {0, 512}) {
            long previous = 0;
            for (int drafts = 0; drafts <= 16; drafts++) {
                StepShape s = shape(prefill, 0, 0, 0);
                for (int i = 0; i < 24; i++) {
                    s.addVerify(800 + i, drafts);
                }
                long t = m.stepTimeUs(s);
                assertTrue(t >= previous, drafts + " drafts: " + t + " < " + previous);
                previous = t;
            }
        }
    }

    /** A step that encodes more multimodal tokens never takes less time (every model: the step's encoder tokens are 0 or priced). */
    @ParameterizedTest
    @MethodSource("models")
    void nonDecreasingInEncoderTokens(Supplier<LatencyModel> factory) {
        LatencyModel m = factory.get();
        long previous = 0;
        for (int tokens = 0; tokens <= 8192; tokens += 576) {
            StepShape s = shape(1024, 0, 8, 900);
            s.addEncoderItems(tokens == 0 ? 0 : 1, tokens);
            long t = m.stepTimeUs(s);
            assertTrue(t >= previous, tokens + " encoder tokens: " + t + " < " + previous);
            previous = t;
        }
    }

    @ParameterizedTest
    @MethodSource("models")
    void delaysAreNeverNegative(Supplier<LatencyModel> factory) {
        LatencyModel m = factory.get();
        for (int input : new int[] {0, 1, 100, 4096, 1_000_000}) {
            assertTrue(m.queueingDelayUs(input) >= 0);
        }
        assertTrue(m.outputTokenProcessingUs() >= 0);
    }

    @ParameterizedTest
    @MethodSource("models")
    void deterministic(Supplier<LatencyModel> factory) {
        LatencyModel a = factory.get();
        LatencyModel b = factory.get();
        StepShape mixed = shape(700, 3000, 40, 1500);
        mixed.addPrefill(33, 0);
        long first = a.stepTimeUs(mixed);
        assertEquals(first, a.stepTimeUs(mixed));
        assertEquals(first, b.stepTimeUs(mixed));
        assertEquals(a.queueingDelayUs(1234), b.queueingDelayUs(1234));
        assertEquals(a.describe(), b.describe());
        assertTrue(first >= 1);
    }
}
