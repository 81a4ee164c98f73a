package io.servesim.io;

import java.io.OutputStream;
import org.apache.parquet.io.OutputFile;
import org.apache.parquet.io.PositionOutputStream;

/**
 * A Parquet {@link OutputFile} that is one already-open stream, such as the channel Beam's
 * {@code FileIO} hands a sink (which creates, names and commits the file itself): the file is
 * created once, by whoever opened the stream.
 */
public final class StreamOutputFile extends NamedOutputFile {
    private final OutputStream stream;

    /** {@code name}: what errors call the file. */
    public StreamOutputFile(OutputStream stream, String name) {
        super(name);
        this.stream = stream;
    }

    @Override
    public PositionOutputStream create(long blockSizeHint) {
        return new CountingOutputStream(stream);
    }

    @Override
    public PositionOutputStream createOrOverwrite(long blockSizeHint) {
        return create(blockSizeHint);
    }
}
