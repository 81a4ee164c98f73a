package io.servesim.sweep;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.avro.Schema;

/**
 * Per-sweep schemas: each dataset's base schema with the sweep's key columns in front:
 * {@code cell_id}, one string column per axis (the value's label) and {@code seed}. So
 * {@code SELECT routing, avg(ttft_p99_ms) FROM 'out/x/cells/*.parquet' GROUP BY routing} needs no
 * join, and requests join cells on {@code cell_id}.
 */
public final class DatasetSchemas {
    /** Stable id of the cell (hash of its resolved config and seed). */
    public static final String CELL_ID = "cell_id";
    /** The cell's seed. */
    public static final String SEED = "seed";

    private DatasetSchemas() {
    }

    /** Every dataset's schema for a sweep with these axes. */
    public static Map<Dataset, Schema> forAxes(List<String> axes) {
        Map<Dataset, Schema> out = new EnumMap<>(Dataset.class);
        for (Dataset d : Dataset.values()) {
            out.put(d, withKeys(d.baseSchema(), axes));
        }
        return out;
    }

    /** {@code base} with the key columns prepended. */
    static Schema withKeys(Schema base, List<String> axes) {
        List<Schema.Field> fields = new ArrayList<>();
        Schema string = Schema.create(Schema.Type.STRING);
        fields.add(new Schema.Field(CELL_ID, string, "Stable cell id: first 16 hex digits of SHA-256 over the cell's resolved run config (canonical JSON, seed included) and the contents of the files it reads."));
        for (String axis : axes) {
            fields.add(new Schema.Field(axis, string, "Label of the sweep axis '" + axis + "' (the value, or the name of a named alternative)."));
        }
        fields.add(new Schema.Field(SEED, Schema.create(Schema.Type.LONG), "Seed of the cell's run."));
        for (Schema.Field f : base.getFields()) {
            fields.add(new Schema.Field(f, f.schema()));
        }
        return Schema.createRecord(base.getName(), base.getDoc(), base.getNamespace(), false, fields);
    }

    /**
     * Column names an axis may not take: the key columns and every dataset's own columns, matched
     * case-insensitively, as SQL matches names (DuckDB would read an axis {@code TTFT_P99_MS} and the
     * column {@code ttft_p99_ms} as one name and rename one of them).
     */
    public static Set<String> reservedColumns() {
        Set<String> names = new TreeSet<>(String.CASE_INSENSITIVE_ORDER);
        names.addAll(List.of(CELL_ID, SEED));
        for (Dataset d : Dataset.values()) {
            d.baseSchema().getFields().forEach(f -> names.add(f.name()));
        }
        return names;
    }
}
