package io.servesim.io;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import org.apache.avro.Schema;

/**
 * The dataset schemas of {@code schemas/*.avsc}, which the build copies onto the classpath under
 * {@code /schemas/}. Every Avro writer and coder gets its schema from here, explicitly.
 */
public final class Schemas {
    private Schemas() {
    }

    /** {@code schemas/request.avsc}: one request's outcome. */
    public static Schema request() {
        return load("request.avsc");
    }

    /** {@code schemas/session.avsc}: one agentic session's outcome. */
    public static Schema session() {
        return load("session.avsc");
    }

    /** {@code schemas/scaling.avsc}: one row of a run's replica timeline. */
    public static Schema scaling() {
        return load("scaling.avsc");
    }

    /** Parses {@code /schemas/<fileName>} from the classpath. */
    public static Schema load(String fileName) {
        String resource = "/schemas/" + fileName;
        try (InputStream in = Schemas.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("schema " + resource + " is not on the classpath");
            }
            return new Schema.Parser().parse(in);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read schema " + resource, e);
        }
    }
}
