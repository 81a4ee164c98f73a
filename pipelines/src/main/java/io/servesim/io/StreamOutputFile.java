package io.servesim.io;

import java.io.OutputStream;
import org.apache.parquet.io.OutputFile;
import org.apache.parquet.io.PositionOutputStream;

/**
 * A Parquet {@link OutputFile} that is one already-open stream, such as the channel Beam's
 * {@code FileIO} hands a sink (which creates, names and commits the file itself): the file is
 * created once, by whoever opened the stream.
 */
public final class StreamOutputFile implements OutputFile {
    private final OutputStream stream;
    private final String name;

    /** {@code name}: what errors call the file. */
    public StreamOutputFile(OutputStream stream, String name) {
        this.stream = stream;
        this.name = name;
    }

    @Override
    public PositionOutputStream create(long blockSizeHint) {
        return new CountingOutputStream(stream);
    }

    @Override
    public PositionOutputStream createOrOverwrite(long blockSizeHint) {
        return create(blockSizeHint);
    }

    @Override
    public boolean supportsBlockSize() {
        return false;
    }

    @Override
    public long defaultBlockSize() {
        return 0;
    }

    @Override
    public String getPath() {
        return name;
    }
}
