package io.servesim.latency;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class CoefficientTableTest {
    private final CoefficientTable table = CoefficientTable.builtIn();

    @Test
    void realEntryForLlama8bOnH100Tp1() {
        CoefficientTable.Entry e = table.find("Meta-Llama/Llama-3.1-8B-Instruct", "H100", 1).orElseThrow();
        // numbers as in blackbox_coefficients.yaml (vllm v0.11.0 entry)
        assertEquals(new BlackboxCoefficients(10326.268121600151, 0.0, 0.0,
                6472.007648778123, 19.79721387814611, 304.4021040302657), e.coefficients());
        assertEquals(29205, e.totalKvBlocks());
        assertEquals(379.0472762050282, e.bestLoss());
        assertEquals("meta-llama/llama-3.1-8b-instruct", e.modelId());
    }

    @Test
    void fileGpuSpellingA100Dash80MapsToCanonicalA100Dash80GB() {
        CoefficientTable.Entry e = table.find("meta-llama/llama-3.1-8b-instruct", "A100-80GB", 1).orElseThrow();
        assertEquals(16441.531547147923, e.coefficients().b0());
        assertEquals("A100-80GB", e.gpu());
        assertTrue(table.find("meta-llama/llama-3.1-8b-instruct", "A100-80", 1).isEmpty(), "lookup takes canonical names");
    }

    @Test
    void duplicateTriplesKeepTheLowestBestLoss() {
        // redhatai/phi-4-fp8-dynamic H100 TP1 appears twice: best_loss 198.58 and 501.28
        CoefficientTable.Entry e = table.find("redhatai/phi-4-fp8-dynamic", "H100", 1).orElseThrow();
        assertEquals(198.5839129752874, e.bestLoss());
        // 111 entries, 24 of them repeat a triple -> 87 distinct triples
        assertEquals(87, table.size());
    }

    @Test
    void entriesForAModelListEveryTrainedTriple() {
        List<CoefficientTable.Entry> entries = table.entriesFor("meta-llama/llama-3.1-8b-instruct");
        StringBuilder triples = new StringBuilder();
        for (CoefficientTable.Entry e : entries) {
            triples.append(e.gpu()).append('/').append(e.tp()).append(' ');
        }
        assertEquals("A100-80GB/1 A100-80GB/2 A100-80GB/4 H100/1 H100/2 H100/4 ", triples.toString());
    }

    @Test
    void untrainedTripleIsEmpty() {
        assertTrue(table.find("meta-llama/llama-3.1-8b-instruct", "H100", 8).isEmpty());
        assertTrue(table.find("qwen/qwen3-30b-a3b", "H100", 1).isEmpty());
    }
}
