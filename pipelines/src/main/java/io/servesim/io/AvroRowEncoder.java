package io.servesim.io;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.io.BinaryEncoder;

/**
 * Writes rows of a flat record schema straight into their Avro binary encoding (the bytes
 * {@code GenericDatumWriter} writes for the same row held as a record), from {@link RowFields}
 * calls made in the schema's field order: no record, no boxed values. Each call is checked
 * against the field at its position, name and type ({@link #end} checks the row is complete); the
 * schema's names are interned, so a converter's literal names compare by reference.
 * Fields may be long, int, double, boolean or string, or a union of null and one of them.
 */
public final class AvroRowEncoder implements RowFields {
    private final String schemaName;
    private final String[] names;
    private final Schema.Type[] types;
    /** Per field: the union's null branch, or -1 for a field that cannot be null. */
    private final int[] nullIndex;
    private BinaryEncoder out;
    private int position;

    /** Rows of {@code schema}; throws {@link IllegalArgumentException} naming a field it cannot encode. */
    public AvroRowEncoder(Schema schema) {
        List<Schema.Field> fields = schema.getFields();
        schemaName = schema.getName();
        names = new String[fields.size()];
        types = new Schema.Type[fields.size()];
        nullIndex = new int[fields.size()];
        for (int i = 0; i < names.length; i++) {
            Schema.Field f = fields.get(i);
            Schema s = f.schema();
            nullIndex[i] = -1;
            if (s.getType() == Schema.Type.UNION) {
                List<Schema> branches = s.getTypes();
                int nulls = branches.get(0).getType() == Schema.Type.NULL ? 0 : 1;
                if (branches.size() != 2 || branches.get(nulls).getType() != Schema.Type.NULL) {
                    throw new IllegalArgumentException(schemaName + "." + f.name() + ": only unions of null and one type, not " + s);
                }
                nullIndex[i] = nulls;
                s = branches.get(1 - nulls);
            }
            switch (s.getType()) {
                case LONG, INT, DOUBLE, BOOLEAN, STRING -> types[i] = s.getType();
                default -> throw new IllegalArgumentException(schemaName + "." + f.name() + ": Avro type " + s.getType()
                        + " is not supported (long, int, double, boolean, string, or a union of null and one)");
            }
            names[i] = f.name().intern();
        }
    }

    /** Starts a row written to {@code encoder}. */
    public void begin(BinaryEncoder encoder) {
        out = encoder;
        position = 0;
    }

    /** Ends the row; every field must have been set. */
    public void end() {
        if (position != names.length) {
            throw new IllegalStateException(schemaName + ": row ended after " + position + " of " + names.length
                    + " fields (next: " + names[position] + ")");
        }
    }

    /** The next field, which must be {@code field} of {@code type}; writes its union branch when it has one. */
    private void next(String field, Schema.Type type, boolean isNull) throws IOException {
        int i = position;
        if (i == names.length || types[i] != type || names[i] != field && !names[i].equals(field)) {
            throw new IllegalStateException(schemaName + ": " + type.getName() + " field " + field + " set where the schema has "
                    + (i == names.length ? "no more fields" : types[i].getName() + " field " + names[i]));
        }
        if (nullIndex[i] >= 0) {
            out.writeIndex(isNull ? nullIndex[i] : 1 - nullIndex[i]);
        } else if (isNull) {
            throw new NullPointerException(schemaName + "." + field + " cannot be null");
        }
        position = i + 1;
    }

    @Override
    public void put(String field, long value) {
        try {
            next(field, Schema.Type.LONG, false);
            out.writeLong(value);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void put(String field, int value) {
        try {
            next(field, Schema.Type.INT, false);
            out.writeInt(value);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void put(String field, double value) {
        try {
            next(field, Schema.Type.DOUBLE, false);
            out.writeDouble(value);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void put(String field, boolean value) {
        try {
            next(field, Schema.Type.BOOLEAN, false);
            out.writeBoolean(value);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void putNull(String field) {
        try {
            next(field, position < types.length ? types[position] : Schema.Type.NULL, true);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void put(String field, String value) {
        try {
            next(field, Schema.Type.STRING, value == null);
            if (value != null) {
                out.writeString(value);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
