package io.servesim.io;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import org.apache.parquet.io.PositionOutputStream;

/**
 * A buffered Parquet {@link PositionOutputStream} over any stream: Parquet asks where it is to
 * record page and footer offsets, so the position is the count of bytes written through it.
 */
final class CountingOutputStream extends PositionOutputStream {
    private final OutputStream out;
    private long pos;

    CountingOutputStream(OutputStream raw) {
        this.out = new BufferedOutputStream(raw, 1 << 16);
    }

    @Override
    public long getPos() {
        return pos;
    }

    @Override
    public void write(int b) throws IOException {
        out.write(b);
        pos++;
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        out.write(b, off, len);
        pos += len;
    }

    @Override
    public void flush() throws IOException {
        out.flush();
    }

    @Override
    public void close() throws IOException {
        out.close();
    }
}
