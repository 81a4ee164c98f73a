package io.servesim.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.servesim.metrics.CellMetric;
import io.servesim.metrics.CellMetrics;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * {@code schemas/cell.avsc} is the metric catalog ({@link CellMetrics}) written as an Avro schema:
 * this test fails when they disagree, and {@code -Dservesim.schema.write=true} rewrites the file
 * from the catalog (after adding a metric).
 */
class CellSchemaTest {
    private static final Path FILE = Path.of("..", "schemas", "cell.avsc");
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    @Test
    void theCellSchemaIsTheMetricCatalog() throws Exception {
        String expected = JSON.writeValueAsString(fromCatalog()) + "\n";
        if (Boolean.getBoolean("servesim.schema.write")) {
            Files.writeString(FILE, expected);
        }
        assertEquals(expected, Files.readString(FILE), "schemas/cell.avsc disagrees with CellMetrics: regenerate it with"
                + " mvn test -pl pipelines -Dtest=CellSchemaTest -Dservesim.schema.write=true");
    }

    private static ObjectNode fromCatalog() {
        ObjectNode root = JSON.createObjectNode();
        root.put("type", "record");
        root.put("name", "Cell");
        root.put("namespace", "io.servesim.schema");
        root.put("doc", "One sweep cell's aggregates (io.servesim.metrics.RunSummary): one row per (axis values, seed). A sweep"
                + " writes it as cells/ with the columns cell_id (string), one string column per axis holding the value's label,"
                + " and seed (long) prepended. Rows hold only simulated results; wall-clock timings are in _SUMMARY.json."
                + " Generated from io.servesim.metrics.CellMetrics (CellSchemaTest): edit the catalog, not this file.");
        ArrayNode fields = root.putArray("fields");
        ObjectNode index = fields.addObject();
        index.put("name", "cell_index");
        index.put("type", "int");
        index.put("doc", "Position of the cell in the sweep grid (axes in declaration order, first axis outermost, seeds"
                + " innermost); ORDER BY it for the declared order.");
        for (CellMetric m : CellMetrics.ALL) {
            ObjectNode f = fields.addObject();
            f.put("name", m.column());
            switch (m.kind()) {
                case COUNT -> f.put("type", "long");
                case INT -> f.put("type", "int");
                case DOUBLE -> f.put("type", "double");
                case TEXT -> f.put("type", "string");
                case OPTIONAL_DOUBLE -> f.putArray("type").add("null").add("double");
            }
            f.put("doc", m.description());
            if (m.kind() == CellMetric.Kind.OPTIONAL_DOUBLE) {
                f.putNull("default");
            }
        }
        return root;
    }
}
