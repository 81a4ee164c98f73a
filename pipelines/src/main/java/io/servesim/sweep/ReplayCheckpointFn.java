package io.servesim.sweep;

import java.io.IOException;
import java.nio.file.Path;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.values.KV;

/**
 * On {@code sweep --resume}: emits the row batches of one cell that finished before the
 * interruption, read from its {@link Checkpoint} file, into the same dataset write as the cells
 * that run now.
 */
final class ReplayCheckpointFn extends DoFn<String, KV<String, byte[]>> {
    private static final long serialVersionUID = 1L;

    @ProcessElement
    public void process(@Element String file, OutputReceiver<KV<String, byte[]>> out) throws IOException {
        for (KV<String, byte[]> batch : Checkpoint.read(Path.of(file))) {
            out.output(batch);
        }
    }
}
