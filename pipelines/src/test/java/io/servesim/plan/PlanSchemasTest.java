package io.servesim.plan;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.servesim.io.Schemas;
import java.util.Set;
import org.apache.avro.Schema;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The plan's datasets are documented field by field ({@code schemas/plan_candidate.avsc}, {@code plan_frontier.avsc}):
 * every field has a doc, and every number that has a unit says it in its name.
 */
class PlanSchemasTest {
    /** Numbers without a unit: counts, indexes, degrees, ratios. */
    private static final Set<String> UNITLESS = Set.of("candidate_index", "tp", "instances", "prefill_replicas",
            "decode_replicas", "dp_ranks", "gpus", "trace_requests", "slo_attainment", "slo_slack", "rank");

    @ParameterizedTest
    @ValueSource(strings = {"plan_candidate.avsc", "plan_frontier.avsc"})
    void everyFieldIsDocumentedAndCarriesItsUnit(String file) {
        Schema schema = Schemas.load(file);
        assertFalse(schema.getDoc() == null || schema.getDoc().isBlank(), file);
        for (Schema.Field f : schema.getFields()) {
            assertFalse(f.doc() == null || f.doc().isBlank(), file + ": " + f.name() + " has no doc");
            Schema type = f.schema().isNullable() ? f.schema().getTypes().get(1) : f.schema();
            boolean number = type.getType() == Schema.Type.DOUBLE || type.getType() == Schema.Type.INT;
            if (number && !UNITLESS.contains(f.name())) {
                assertTrue(f.name().matches(".*_(ms|rps|usd_per_hour|per_gpu_hour|per_rps)$") || f.name().startsWith("usd_"),
                        file + ": " + f.name() + " names no unit");
            }
        }
    }
}
