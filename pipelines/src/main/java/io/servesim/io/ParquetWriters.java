package io.servesim.io;

import java.io.IOException;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryDecoder;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.avro.AvroParquetWriter;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.api.WriteSupport;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.OutputFile;

/**
 * Every Parquet file servesim writes is opened here, with parquet-avro's {@link AvroParquetWriter}
 * for rows held as records, or with {@link EncodedRowWriteSupport} for rows still in their Avro
 * binary encoding (a sweep's row batches), which gives the same file:
 * <ul>
 *   <li>Snappy-compressed (snappy-java bundles its native library, so no system libraries are needed);</li>
 *   <li>with a bare Hadoop {@link Configuration} ({@code new Configuration(false)}): the writer only
 *       reads a few parquet-avro keys, all left at their defaults, and the default constructor parses
 *       Hadoop's {@code core-default.xml} again for every file opened;</li>
 *   <li>with Parquet's dictionary encoding for every column but those whose schema field says
 *       {@code "parquet.dictionary": false} ({@link #DICTIONARY_PROP}): the per-request latencies and
 *       the instants after arrival, about one distinct value per row. parquet-mr builds such a
 *       column's dictionary for its whole first page (all of a small file's rows) before finding it
 *       does not pay and re-encoding the page plain, so the column is the same without it. Measured on
 *       the quickstart sweep's 48,000 request rows: written in 384-400 ms with a dictionary tried on
 *       every column, 311-322 ms without one on these ten, 258-284 ms with none at all (but a file 27%
 *       larger: the other columns' dictionaries pay, e.g. arrival times repeated across a sweep's
 *       policies).</li>
 * </ul>
 */
public final class ParquetWriters {
    /** Avro field property: {@code false} writes the field's column without a dictionary. */
    public static final String DICTIONARY_PROP = "parquet.dictionary";

    private ParquetWriters() {
    }

    /**
     * A writer of rows with {@code schema} to {@code file}; {@code mode} says whether an existing
     * file may be replaced ({@link ParquetFileWriter.Mode#CREATE} refuses).
     */
    public static ParquetWriter<GenericRecord> open(OutputFile file, Schema schema, ParquetFileWriter.Mode mode)
            throws IOException {
        return configure(AvroParquetWriter.<GenericRecord>builder(file).withSchema(schema).withDataModel(GenericData.get()), schema, mode);
    }

    /**
     * A writer of rows with {@code schema} to {@code file}, each written as the decoder positioned
     * at its Avro binary encoding ({@link EncodedRowWriteSupport}); {@code mode} as in {@link #open}.
     */
    public static ParquetWriter<BinaryDecoder> openEncoded(OutputFile file, Schema schema, ParquetFileWriter.Mode mode)
            throws IOException {
        return configure(new EncodedBuilder(file, new EncodedRowWriteSupport(schema)), schema, mode);
    }

    private static <T, B extends ParquetWriter.Builder<T, B>> ParquetWriter<T> configure(B builder, Schema schema,
                                                                                       ParquetFileWriter.Mode mode)
            throws IOException {
        builder.withConf(new Configuration(false))
                .withCompressionCodec(CompressionCodecName.SNAPPY)
                .withWriteMode(mode);
        for (Schema.Field f : schema.getFields()) {
            Object dictionary = f.getObjectProp(DICTIONARY_PROP);
            if (dictionary != null) {
                if (!(dictionary instanceof Boolean on)) {
                    throw new IllegalArgumentException(schema.getName() + "." + f.name() + ": " + DICTIONARY_PROP
                            + " must be true or false, not " + dictionary);
                }
                builder.withDictionaryEncoding(f.name(), on);
            }
        }
        return builder.build();
    }

    private static final class EncodedBuilder extends ParquetWriter.Builder<BinaryDecoder, EncodedBuilder> {
        private final EncodedRowWriteSupport support;

        EncodedBuilder(OutputFile file, EncodedRowWriteSupport support) {
            super(file);
            this.support = support;
        }

        @Override
        protected EncodedBuilder self() {
            return this;
        }

        @Override
        protected WriteSupport<BinaryDecoder> getWriteSupport(Configuration conf) {
            return support;
        }
    }
}
