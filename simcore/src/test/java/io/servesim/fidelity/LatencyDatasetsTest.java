package io.servesim.fidelity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.servesim.latency.RooflineConstants;
import io.servesim.testing.RepoFiles;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The attention rows the roofline's attention efficiency is fitted on are read as LLMServingSim's profiler writes them. */
class LatencyDatasetsTest {
    @Test
    void anAttentionProfileGivesItsPureDecodeRowsOneLayerEach() {
        List<LatencyObservation> all = LatencyDatasets.attention(
                RepoFiles.data("profiling/llmservingsim_rtx4090_llama31_8b/tp1/attention.csv"), "RTX4090", "meta-llama/llama-3.1-8b", 1);
        // 8,643 rows, of which 99 have no prefill chunk and at least one decode (n_decode 1-256 x kv_decode 16-16384), and
        // 440 a chunk without cached context beside 8 or more decodes: 8 chunks (16-2,048) x 5 decode counts (8-128) x 11
        // contexts (16-16,384), their own data set
        List<LatencyObservation> rows = all.stream().filter(o -> !o.mixedGpuOnly()).toList();
        assertEquals(99, rows.size());
        assertEquals(440, all.size() - rows.size());
        assertTrue(all.stream().filter(LatencyObservation::mixedGpuOnly).allMatch(o -> o.source().endsWith(" mixed")
                && ((LatencyObservation.Attention) o).step().decodeSeqs() >= 8));
        LatencyObservation.Attention row = rows.stream().map(LatencyObservation.Attention.class::cast)
                .filter(a -> a.step().decodeSeqs() == 64 && a.step().decodeContextTokens(0) == 1024).findFirst().orElseThrow();
        // the row 0,0,64,1024,333.295: 64 sequences of 1,024 tokens of context each, 333.295 us for one layer
        assertEquals(0, row.step().prefillSeqs());
        assertEquals(64 * 1024, row.step().decodeContextTokens());
        assertEquals(333.295, row.measuredUs(), 1e-9);
        // predicted: 64 x 1,025 tokens x 4,096 B of K and V per layer (8 KV heads x 128 x 2 x 2 B) = 268,697,600 B at
        // 1.008e12 B/s x the attention efficiency, plus the KV write's and the attention's kernels
        RooflineConstants c = RooflineConstants.bundled();
        double expected = 268_697_600 / (1.008e12 * c.attentionEfficiency()) * 1e6 + 2 * c.kernelLaunchUs();
        assertEquals(expected, row.predictUs(c), 1e-6);
        assertTrue(Math.abs(expected / 333.295 - 1) < 0.10, "within 10% of the measurement: " + expected);
    }

    @Test
    void everyShippedAttentionProfileIsRead() {
        // RTX PRO 6000: 171 decode rows in each of its five profiles (Llama-3.1-8B; Qwen3-32B and Qwen3-30B-A3B at
        // TP 1 and 2); RTX 4090: 99. Mixed rows (8 or more decodes beside a chunk without cached context): 1,030 in each
        // RTX PRO 6000 profile (19 chunk sizes), 440 in the RTX 4090's.
        long proRows = 0;
        long geforceRows = 0;
        long proMixed = 0;
        long geforceMixed = 0;
        for (LatencyObservation o : LatencyDatasets.read(RepoFiles.data(""))) {
            if (o instanceof LatencyObservation.Attention && o.mixedGpuOnly()) {
                if (o.gpu().name().equals("RTXPRO6000")) {
                    proMixed++;
                } else if (o.gpu().name().equals("RTX4090")) {
                    geforceMixed++;
                }
            } else if (o instanceof LatencyObservation.Attention) {
                if (o.gpu().name().equals("RTXPRO6000")) {
                    proRows++;
                } else if (o.gpu().name().equals("RTX4090")) {
                    geforceRows++;
                }
            }
        }
        assertEquals(5 * 171, proRows);
        assertEquals(99, geforceRows);
        assertEquals(5 * 1030, proMixed);
        assertEquals(440, geforceMixed);
    }

    @Test
    void aQwen3ProfilesGemmsAreReadAtTheirShapeOnOneRank() {
        List<LatencyObservation> rows = LatencyDatasets.gemms(RepoFiles.data("profiling/llmservingsim_rtxpro6000_qwen3_32b/tp2"),
                "RTXPRO6000", "qwen/qwen3-32b", 2);
        // Qwen3-32B (hidden 5,120, 64 query heads and 8 KV heads of 128, MLP 25,600, vocabulary 151,936) at TP 2, per rank:
        // QKV (32 + 2 x 4) x 128 = 5,120 x 5,120; O 5,120 x 32 x 128 = 4,096; gate/up 2 x 12,800 x 5,120; down 5,120 x
        // 12,800; LM head 75,968 x 5,120. 152 token counts for each of the four GEMMs, 40 sequence counts for the head.
        assertEquals(4 * 152 + 40, rows.size());
        assertTrue(rows.stream().map(LatencyObservation.Kernel.class::cast).anyMatch(k -> k.source().endsWith("TP2 qkv_proj")
                && k.n() == 5120 && k.k() == 5120));
        assertTrue(rows.stream().map(LatencyObservation.Kernel.class::cast).anyMatch(k -> k.source().endsWith("TP2 o_proj")
                && k.n() == 5120 && k.k() == 4096));
        assertTrue(rows.stream().map(LatencyObservation.Kernel.class::cast).anyMatch(k -> k.source().endsWith("TP2 gate_up_proj")
                && k.n() == 25_600 && k.k() == 5120));
        assertTrue(rows.stream().map(LatencyObservation.Kernel.class::cast).anyMatch(k -> k.source().endsWith("TP2 down_proj")
                && k.n() == 5120 && k.k() == 12_800));
        assertTrue(rows.stream().map(LatencyObservation.Kernel.class::cast).anyMatch(k -> k.source().endsWith("TP2 lm_head")
                && k.n() == 75_968 && k.k() == 5120));
    }
}
