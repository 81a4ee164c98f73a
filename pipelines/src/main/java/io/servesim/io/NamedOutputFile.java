package io.servesim.io;

import org.apache.parquet.io.OutputFile;

/**
 * What servesim's Parquet {@link OutputFile}s share: a name for errors, and no block size (Parquet
 * aligns row groups to file-system blocks only for files that ask for it, as HDFS files do).
 */
abstract class NamedOutputFile implements OutputFile {
    private final String name;

    NamedOutputFile(String name) {
        this.name = name;
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
