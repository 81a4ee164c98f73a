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
    private final Utf8 text = new Utf8();
    private RecordConsumer out;

    /** Rows of {@code schema} (a record); throws {@link IllegalArgumentException} for a schema it cannot write. */
    public EncodedRowWriteSupport(Schema schema) {
        if (schema.getType() != Schema.Type.RECORD) {
            throw new IllegalArgumentException("rows must be Avro records, not " + schema.getType());
        }
        check(schema, schema.getName());
        this.schema = schema;
    }

    private static void check(Schema s, String path) {
        switch (s.getType()) {
            case RECORD -> s.getFields().forEach(f -> check(f.schema(), path + "." + f.name()));
            case ARRAY -> {
                if (s.getElementType().getType() == Schema.Type.UNION) {
                    throw new IllegalArgumentException(path + ": array items may not be nullable (two-level Parquet lists cannot hold null)");
                }
                check(s.getElementType(), path + "[]");
            }
            case MAP -> check(s.getValueType(), path + "{}");
            case UNION -> {
                List<Schema> types = s.getTypes();
                if (types.size() != 2 || nullBranch(s) < 0) {
                    throw new IllegalArgumentException(path + ": only unions of null and one type are supported, not " + s);
                }
                check(types.get(1 - nullBranch(s)), path);
            }
            case STRING, INT, LONG, DOUBLE, BOOLEAN -> {
            }
            default -> throw new IllegalArgumentException(path + ": Avro type " + s.getType() + " is not supported"
                    + " (records, arrays, maps, nullable unions, string, int, long, double, boolean)");
        }
    }

    /** The index of the null branch of a union, or -1. */
    private static int nullBranch(Schema union) {
        List<Schema> types = union.getTypes();
        for (int i = 0; i < types.size(); i++) {
            if (types.get(i).getType() == Schema.Type.NULL) {
                return i;
            }
        }
        return -1;
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
            writeFields(schema, in);
            out.endMessage();
        } catch (IOException e) {
            throw new UncheckedIOException("decoding a " + schema.getName() + " row", e);
        }
    }

    private void writeFields(Schema record, BinaryDecoder in) throws IOException {
        List<Schema.Field> fields = record.getFields();
        for (int i = 0; i < fields.size(); i++) {
            Schema.Field f = fields.get(i);
            Schema s = present(f.schema(), in);
            if (s != null) {
                out.startField(f.name(), i);
                writeValue(s, in);
                out.endField(f.name(), i);
            }
        }
    }

    /** {@code s}, or for a union the branch the next value takes; null for a null value. */
    private static Schema present(Schema s, BinaryDecoder in) throws IOException {
        if (s.getType() != Schema.Type.UNION) {
            return s;
        }
        Schema branch = s.getTypes().get(in.readIndex());
        return branch.getType() == Schema.Type.NULL ? null : branch;
    }

    private void writeValue(Schema s, BinaryDecoder in) throws IOException {
        switch (s.getType()) {
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
            case ARRAY -> writeArray(s.getElementType(), in);
            case MAP -> writeMap(s.getValueType(), in);
            default -> throw new IllegalStateException("unchecked Avro type " + s.getType());
        }
    }

    private void writeString(BinaryDecoder in) throws IOException {
        in.readString(text);
        out.addBinary(Binary.fromReusedByteArray(text.getBytes(), 0, text.getByteLength()));
    }

    /** A two-level list (parquet-avro's default): a group holding a repeated {@code array} field, absent when empty. */
    private void writeArray(Schema items, BinaryDecoder in) throws IOException {
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
    private void writeMap(Schema values, BinaryDecoder in) throws IOException {
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
                    Schema v = present(values, in);
                    if (v != null) {
                        out.startField(MAP_VALUE, 1);
                        writeValue(v, in);
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
