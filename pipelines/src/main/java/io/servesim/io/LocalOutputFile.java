package io.servesim.io;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.apache.parquet.io.OutputFile;
import org.apache.parquet.io.PositionOutputStream;

/**
 * A Parquet {@link OutputFile} on the local file system through {@code java.nio}, so writing one
 * file needs no Hadoop {@code FileSystem} (and leaves no {@code .crc} side files). Parquet 1.14
 * ships the same idea as {@code org.apache.parquet.io.LocalOutputFile}; Beam 2.62 brings 1.13.1.
 */
public final class LocalOutputFile extends NamedOutputFile {
    private final Path path;

    public LocalOutputFile(Path path) {
        super(path.toString());
        this.path = path;
    }

    @Override
    public PositionOutputStream create(long blockSizeHint) throws IOException {
        return new CountingOutputStream(Files.newOutputStream(path, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE));
    }

    @Override
    public PositionOutputStream createOrOverwrite(long blockSizeHint) throws IOException {
        return new CountingOutputStream(Files.newOutputStream(path));
    }

    @Override
    public String getPath() {
        return path.toString();
    }
}
