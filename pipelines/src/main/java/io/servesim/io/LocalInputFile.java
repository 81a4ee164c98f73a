package io.servesim.io;

import java.io.IOException;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.apache.parquet.io.DelegatingSeekableInputStream;
import org.apache.parquet.io.InputFile;
import org.apache.parquet.io.SeekableInputStream;

/**
 * A Parquet {@link InputFile} on the local file system through {@code java.nio}, so reading one
 * file needs no Hadoop {@code FileSystem}: the reading side of {@link LocalOutputFile} (Parquet
 * 1.14 ships the same as {@code org.apache.parquet.io.LocalInputFile}; Beam 2.62 brings 1.13.1).
 */
public final class LocalInputFile implements InputFile {
    private final Path path;

    public LocalInputFile(Path path) {
        this.path = path;
    }

    @Override
    public long getLength() throws IOException {
        return Files.size(path);
    }

    @Override
    public SeekableInputStream newStream() throws IOException {
        FileChannel channel = FileChannel.open(path, StandardOpenOption.READ);
        return new DelegatingSeekableInputStream(Channels.newInputStream(channel)) {
            @Override
            public long getPos() throws IOException {
                return channel.position();
            }

            @Override
            public void seek(long newPos) throws IOException {
                channel.position(newPos);
            }
        };
    }

    @Override
    public String toString() {
        return path.toString();
    }
}
