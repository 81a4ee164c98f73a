package io.servesim.io;

import org.apache.avro.generic.GenericRecord;

/**
 * One output row's fields, set by name and in the schema's order: a converter such as
 * {@link RequestRows} writes through it either into a {@link GenericRecord} ({@link #of}) or
 * straight into a row's Avro binary encoding ({@link AvroRowEncoder}), with no record in between.
 * Each setter takes the field's Avro type ({@code long}, {@code int}, {@code double},
 * {@code boolean}, {@code string}; a string may be null where the field is a union with null).
 */
public interface RowFields {
    void put(String field, long value);

    void put(String field, int value);

    void put(String field, double value);

    void put(String field, boolean value);

    void put(String field, String value);

    /** Sets {@code field}, a union of null and one type, to null. */
    void putNull(String field);

    /** Fields set on {@code record}, by name. */
    static RowFields of(GenericRecord record) {
        return new RowFields() {
            @Override
            public void put(String field, long value) {
                record.put(field, value);
            }

            @Override
            public void put(String field, int value) {
                record.put(field, value);
            }

            @Override
            public void put(String field, double value) {
                record.put(field, value);
            }

            @Override
            public void put(String field, boolean value) {
                record.put(field, value);
            }

            @Override
            public void put(String field, String value) {
                record.put(field, value);
            }

            @Override
            public void putNull(String field) {
                record.put(field, null);
            }
        };
    }
}
