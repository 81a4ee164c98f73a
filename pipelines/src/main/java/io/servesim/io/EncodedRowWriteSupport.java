package io.servesim.io;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.util.Utf8;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.avro.AvroSchemaConverter;
import org.apache.parquet.hadoop.api.WriteSupport;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.io.api.RecordConsumer;

/**
 * Shreds rows straight from their Avro binary encoding (the datum format, as
 * {@code GenericDatumWriter} writes it) into Parquet columns: each {@link #write} reads one row
 * from the decoder and emits it to Parquet's record consumer, with no {@code GenericRecord} in
 * between. It makes exactly the calls parquet-avro's {@code AvroWriteSupport} makes for the same
 * row held as a record (same Parquet schema by {@link AvroSchemaConverter}, two-level lists, maps
 * as {@code key_value} groups, a null field or map value left out, the Avro schema in the footer
 * under {@code parquet.avro.schema}, object model {@code avro}), so the file is byte for byte the
 * one parquet-avro writes. Map entries keep their encoded order (a decoded {@code GenericRecord}
 * would hold them in a {@code HashMap}).
 *
 * <p>Supported: records, arrays, maps, unions of null and one type, and string, int, long, double
 * and boolean values; the constructor refuses any other schema. Not thread-safe: one per writer.
 */
public final class EncodedRowWriteSupport extends WriteSupport<BinaryDecoder> {
    private static final String AVRO_SCHEMA_KEY = "parquet.avro.schema";
    private static final String LIST_REPEATED = "array";
    private static final String MAP_REPEATED = "key_value";
    private static final String MAP_KEY = "key";
    private static final String MAP_VALUE = "value";

    private final Schema schema;
    private final Shape row;
    private final Utf8 text = new Utf8();
    private RecordConsumer out;

    /**
     * A value's shape, read off the Avro schema once, so writing a row touches no schema objects.
     *
     * @param type      its Avro type (never a union)
     * @param nullIndex for an optional value (a union with null), the null branch's index; else -1
     * @param names     a record's field names
     * @param parts     a record's fields, or an array's items / a map's values (one shape)
     */
    private record Shape(Schema.Type type, int nullIndex, String[] names, Shape[] parts) {
    }

    /** Rows of {@code schema} (a record); throws {@link IllegalArgumentException} for a schema it cannot write. */
    public EncodedRowWriteSupport(Schema schema) {
        if (schema.getType() != Schema.Type.RECORD) {
            throw new IllegalArgumentException("rows must be Avro records, not " + schema.getType());
        }
        this.schema = schema;
        this.row = shape(schema, -1, schema.getName());
    }

    private static Shape shape(Schema s, int nullIndex, String path) {
        return switch (s.getType()) {
            case RECORD -> new Shape(s.getType(), nullIndex, s.getFields().stream().map(Schema.Field::name).toArray(String[]::new),
                    s.getFields().stream().map(f -> shape(f.schema(), -1, path + "." + f.name())).toArray(Shape[]::new));
            case ARRAY -> {
                if (s.getElementType().getType() == Schema.Type.UNION) {
                    throw new IllegalArgumentException(path + ": array items may not be nullable (two-level Parquet lists cannot hold null)");
                }
                yield new Shape(s.getType(), nullIndex, null, new Shape[] {shape(s.getElementType(), -1, path + "[]")});
            }
            case MAP -> new Shape(s.getType(), nullIndex, null, new Shape[] {shape(s.getValueType(), -1, path + "{}")});
            case UNION -> {
                List<Schema> types = s.getTypes();
                int nulls = types.get(0).getType() == Schema.Type.NULL ? 0 : 1;
                if (types.size() != 2 || types.get(nulls).getType() != Schema.Type.NULL) {
                    throw new IllegalArgumentException(path + ": only unions of null and one type are supported, not " + s);
                }
                yield shape(types.get(1 - nulls), nulls, path);
            }
            case STRING, INT, LONG, DOUBLE, BOOLEAN -> new Shape(s.getType(), nullIndex, null, null);
            default -> throw new IllegalArgumentException(path + ": Avro type " + s.getType() + " is not supported"
                    + " (records, arrays, maps, nullable unions, string, int, long, double, boolean)");
        };
    }

    @Override
    public String getName() {
        return "avro";
    }

    @Override
    public WriteContext init(Configuration configuration) {
        return new WriteContext(new AvroSchemaConverter(configuration).convert(schema), Map.of(AVRO_SCHEMA_KEY, schema.toString()));
    }

    @Override
    public void prepareForWrite(RecordConsumer recordConsumer) {
        this.out = recordConsumer;
    }

    /** Reads one row from {@code in} and writes it. */
    @Override
    public void write(BinaryDecoder in) {
        try {
            out.startMessage();
            writeFields(row, in);
            out.endMessage();
        } catch (IOException e) {
            throw new UncheckedIOException("decoding a " + schema.getName() + " row", e);
        }
    }

    private void writeFields(Shape record, BinaryDecoder in) throws IOException {
        Shape[] fields = record.parts();
        String[] names = record.names();
        for (int i = 0; i < fields.length; i++) {
            Shape f = fields[i];
            if (present(f, in)) {
                out.startField(names[i], i);
                writeValue(f, in);
                out.endField(names[i], i);
            }
        }
    }

    /** Whether the next value of {@code s} is there: false when an optional value is null. */
    private static boolean present(Shape s, BinaryDecoder in) throws IOException {
        return s.nullIndex() < 0 || in.readIndex() != s.nullIndex();
    }

    private void writeValue(Shape s, BinaryDecoder in) throws IOException {
        switch (s.type()) {
            case LONG -> out.addLong(in.readLong());
            case INT -> out.addInteger(in.readInt());
            case DOUBLE -> out.addDouble(in.readDouble());
            case BOOLEAN -> out.addBoolean(in.readBoolean());
            case STRING -> writeString(in);
            case RECORD -> {
                out.startGroup();
                writeFields(s, in);
                out.endGroup();
            }
            case ARRAY -> writeArray(s.parts()[0], in);
            case MAP -> writeMap(s.parts()[0], in);
            default -> throw new IllegalStateException("unchecked Avro type " + s.type());
        }
    }

    private void writeString(BinaryDecoder in) throws IOException {
        in.readString(text);
        out.addBinary(Binary.fromReusedByteArray(text.getBytes(), 0, text.getByteLength()));
    }

    /** A two-level list (parquet-avro's default): a group holding a repeated {@code array} field, absent when empty. */
    private void writeArray(Shape items, BinaryDecoder in) throws IOException {
        out.startGroup();
        long n = in.readArrayStart();
        if (n > 0) {
            out.startField(LIST_REPEATED, 0);
            for (; n > 0; n = in.arrayNext()) {
                for (long i = 0; i < n; i++) {
                    writeValue(items, in);
                }
            }
            out.endField(LIST_REPEATED, 0);
        }
        out.endGroup();
    }

    /** A map: a group holding repeated {@code key_value} groups, absent when empty; a null value is left out. */
    private void writeMap(Shape values, BinaryDecoder in) throws IOException {
        out.startGroup();
        long n = in.readMapStart();
        if (n > 0) {
            out.startField(MAP_REPEATED, 0);
            for (; n > 0; n = in.mapNext()) {
                for (long i = 0; i < n; i++) {
                    out.startGroup();
                    out.startField(MAP_KEY, 0);
                    writeString(in);
                    out.endField(MAP_KEY, 0);
                    if (present(values, in)) {
                        out.startField(MAP_VALUE, 1);
                        writeValue(values, in);
                        out.endField(MAP_VALUE, 1);
                    }
                    out.endGroup();
                }
            }
            out.endField(MAP_REPEATED, 0);
        }
        out.endGroup();
    }
}
