package io.servesim.io;

import java.io.Closeable;
import java.io.IOException;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;

/**
 * A file of rows of one Avro schema, Parquet or CSV ({@link RowFiles#open}); {@link #close()}
 * finishes the file (a Parquet file is unreadable until closed).
 */
public interface RowFile extends Closeable {
    /** The rows' schema. */
    Schema schema();

    /** Appends {@code row}; the file copies its values out, so the caller may reuse the object. */
    void write(GenericRecord row) throws IOException;
}
