package io.servesim.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.servesim.metrics.Column;
import io.servesim.metrics.Metric;
import io.servesim.metrics.MetricCatalog;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * {@code schemas/cell.avsc} is the metric catalog's columns ({@link MetricCatalog#COLUMNS}) written as an Avro schema:
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
        assertEquals(expected, Files.readString(FILE), "schemas/cell.avsc disagrees with the metric catalog: regenerate it with mvn -o -pl pipelines -am"
                + " test-compile surefire:test -Dtest=CellSchemaTest -Dsurefire.failIfNoSpecifiedTests=false"
                + " -Dservesim.schema.write=true");
    }

    private static ObjectNode fromCatalog() {
        ObjectNode root = JSON.createObjectNode();
        root.put("type", "record");
        root.put("name", "Cell");
        root.put("namespace", "io.servesim.schema");
        root.put("doc", "One sweep cell's aggregates (io.servesim.metrics.RunSummary): one row per (axis values, seed). A sweep"
                + " writes it as cells/ with the columns cell_id (string), one string column per axis holding the value's label,"
                + " and seed (long) prepended. Rows hold only simulated results; wall-clock timings are in _SUMMARY.json."
                + " Generated from io.servesim.metrics.MetricCatalog (CellSchemaTest): edit the catalog, not this file.");
        ArrayNode fields = root.putArray("fields");
        ObjectNode index = fields.addObject();
        index.put("name", "cell_index");
        index.put("type", "int");
        index.put("doc", "Position of the cell in the sweep grid (axes in declaration order, first axis outermost, seeds"
                + " innermost); ORDER BY it for the declared order.");
        for (Column c : MetricCatalog.COLUMNS) {
            ObjectNode f = fields.addObject();
            f.put("name", c.name());
            switch (c.kind()) {
                case COUNT -> f.put("type", "long");
                case INT -> f.put("type", "int");
                case DOUBLE -> f.put("type", "double");
                case TEXT -> f.put("type", "string");
                case FLAG -> f.put("type", "boolean");
                case OPTIONAL_DOUBLE -> f.putArray("type").add("null").add("double");
                case DISTRIBUTION -> throw new IllegalStateException(c.name() + ": a distribution is its statistics' columns");
            }
            f.put("doc", c.doc() + (c.unit().isEmpty() ? "" : " Unit: " + c.unit() + "."));
            if (c.kind() == Metric.Kind.OPTIONAL_DOUBLE) {
                f.putNull("default");
            }
        }
        return root;
    }
}
