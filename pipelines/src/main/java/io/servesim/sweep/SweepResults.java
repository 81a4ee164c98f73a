package io.servesim.sweep;

import io.servesim.io.LocalInputFile;
import io.servesim.metrics.Column;
import io.servesim.metrics.MetricCatalog;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.avro.AvroParquetReader;
import org.apache.parquet.avro.AvroReadSupport;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.ParquetReader;

/**
 * Reads a finished sweep's Parquet back: rows per dataset (from the files' footers), and the
 * result table the CLI prints (one row per axis combination, the catalog's aggregation over seeds,
 * in the order of each combination's first cell). Reading the written files, not in-memory results,
 * means the table shows exactly what a notebook will see. It reads them with parquet-avro, which
 * wrote them, rather than DuckDB: loading DuckDB's JDBC driver unpacks its 72 MB native library from
 * the jar on every sweep (~0.4 s of CPU on this machine), for a table of a few rows.
 */
public final class SweepResults {
    /** The table's metric columns, headed by their names in the cells dataset, combined over seeds as the catalog says. */
    private static final List<Column> TABLE = java.util.stream.Stream.of("ttft_p99_ms", "e2e_p99_ms", "throughput_rps",
            "output_tokens_per_s", "slo_attainment").map(MetricCatalog::column).toList();

    private SweepResults() {
    }

    /** A dataset's Parquet files, in name order. */
    private static List<Path> files(Path outDir, Dataset d) throws IOException {
        try (Stream<Path> entries = Files.list(outDir.resolve(d.directory()))) {
            return entries.filter(f -> f.getFileName().toString().endsWith(".parquet") && Files.isRegularFile(f)).sorted().toList();
        }
    }

    /** Rows in each written dataset. */
    static Map<Dataset, Long> rowCounts(Path outDir, List<Dataset> written) throws IOException {
        Map<Dataset, Long> counts = new EnumMap<>(Dataset.class);
        for (Dataset d : written) {
            long n = 0;
            for (Path f : files(outDir, d)) {
                try (ParquetFileReader r = ParquetFileReader.open(new LocalInputFile(f))) {
                    n += r.getRecordCount();
                }
            }
            counts.put(d, n);
        }
        return counts;
    }

    /** The cells of one axis combination: how many, the first one's index, and each table column's values. */
    private static final class Group {
        final List<String> labels;
        int cells;
        int firstCell = Integer.MAX_VALUE;
        final Map<String, List<Object>> values = new HashMap<>();

        Group(List<String> labels) {
            this.labels = labels;
        }

        void add(GenericRecord cell) {
            cells++;
            firstCell = Math.min(firstCell, (Integer) cell.get("cell_index"));
            TABLE.forEach(c -> values.computeIfAbsent(c.name(), k -> new ArrayList<>()).add(cell.get(c.name())));
        }
    }

    /**
     * Calls {@code row} with every row of dataset {@code d} in {@code outDir} (a sweep with {@code axes}), read with only
     * the key columns, {@code cell_index} where it has one and {@code columns}.
     */
    public static void forEachRow(Path outDir, Dataset d, List<String> axes, Collection<String> columns,
                                  Consumer<GenericRecord> row) throws IOException {
        Configuration conf = new Configuration(false);
        AvroReadSupport.setRequestedProjection(conf, projection(d, axes, columns));
        for (Path f : files(outDir, d)) {
            try (ParquetReader<GenericRecord> reader = AvroParquetReader.<GenericRecord>builder(new LocalInputFile(f))
                    .withDataModel(GenericData.get()).withConf(conf).build()) {
                for (GenericRecord r = reader.read(); r != null; r = reader.read()) {
                    row.accept(r);
                }
            }
        }
    }

    /** The result table: per axis combination, TTFT/E2E p99, throughput and SLO attainment, over seeds. */
    static String table(Path outDir, List<String> axes) throws IOException {
        Map<List<String>, Group> groups = new HashMap<>();
        forEachRow(outDir, Dataset.CELLS, axes, TABLE.stream().map(Column::name).toList(), cell -> {
            List<String> labels = new ArrayList<>();
            for (String a : axes) {
                labels.add(cell.get(a).toString());
            }
            groups.computeIfAbsent(labels, Group::new).add(cell);
        });
        List<String[]> rows = new ArrayList<>();
        List<String> header = new ArrayList<>(axes);
        header.add("seeds");
        TABLE.forEach(c -> header.add(c.name()));
        rows.add(header.toArray(String[]::new));
        groups.values().stream().sorted(Comparator.comparingInt(g -> g.firstCell)).forEach(g -> {
            List<String> row = new ArrayList<>(g.labels);
            row.add(String.valueOf(g.cells));
            TABLE.forEach(c -> {
                Object v = c.aggregation().combine(g.values.get(c.name()));
                row.add(v == null ? "-" : v instanceof Double d ? format(c, d) : v.toString());
            });
            rows.add(row.toArray(String[]::new));
        });
        return render(rows, axes.size());
    }

    /** The dataset's columns read (of the cells' 100-odd): the key columns, the cell index and {@code columns}. */
    private static Schema projection(Dataset d, List<String> axes, Collection<String> columns) {
        Schema schema = DatasetSchemas.forAxes(axes).get(d);
        List<Schema.Field> read = new ArrayList<>();
        for (Schema.Field f : schema.getFields()) {
            if (axes.contains(f.name()) || f.name().equals("cell_index") || f.name().equals(DatasetSchemas.CELL_ID)
                    || columns.contains(f.name())) {
                read.add(new Schema.Field(f, f.schema()));
            }
        }
        return Schema.createRecord(schema.getName(), schema.getDoc(), schema.getNamespace(), false, read);
    }

    /** A fraction with 3 decimals, other numbers with 1. */
    private static String format(Column column, double v) {
        return column.unit().equals("fraction") ? String.format("%.3f", v) : String.format("%.1f", v);
    }

    /** Axis columns left-aligned, numbers right-aligned. */
    private static String render(List<String[]> rows, int textColumns) {
        int n = rows.get(0).length;
        int[] width = new int[n];
        rows.forEach(r -> {
            for (int i = 0; i < n; i++) {
                width[i] = Math.max(width[i], r[i].length());
            }
        });
        StringBuilder sb = new StringBuilder();
        for (String[] r : rows) {
            for (int i = 0; i < n; i++) {
                String fmt = "%" + (i < textColumns ? "-" : "") + width[i] + "s";
                sb.append(i == 0 ? "" : "  ").append(String.format(fmt, r[i]));
            }
            sb.append('\n');
        }
        return sb.toString();
    }
}
