package io.servesim.latency;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.servesim.config.ConfigException;
import io.servesim.config.ReadFailure;
import io.servesim.config.StrictJson;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * A folder of profile files: a directory on disk (a user's own profile) or a folder bundled under
 * {@code io/servesim/latency/profiles/}. Missing or malformed files are {@link ConfigException}s
 * naming the file, since a profile is user input.
 */
public final class ProfileFiles {
    private static final ObjectMapper YAML = StrictJson.yaml();

    private final Path directory;
    private final String resourceFolder;

    private ProfileFiles(Path directory, String resourceFolder) {
        this.directory = directory;
        this.resourceFolder = resourceFolder;
    }

    /** The files of directory {@code dir}. */
    public static ProfileFiles directory(Path dir) {
        return new ProfileFiles(dir, null);
    }

    /** The bundled folder {@code profiles/<folder>}. */
    static ProfileFiles bundled(String folder) {
        return new ProfileFiles(null, Resources.BASE + "profiles/" + folder);
    }

    /** The sub-folder {@code name}. */
    ProfileFiles sub(String name) {
        return directory != null ? new ProfileFiles(directory.resolve(name), null)
                : new ProfileFiles(null, resourceFolder + "/" + name);
    }

    /** Where file {@code name} is, for messages. */
    String where(String name) {
        return directory != null ? directory.resolve(name).toString() : "bundled " + resourceFolder + "/" + name;
    }

    /** Whether file {@code name} exists. */
    boolean exists(String name) {
        if (directory != null) {
            return Files.isRegularFile(directory.resolve(name));
        }
        return getClass().getClassLoader().getResource(resourceFolder + "/" + name) != null;
    }

    /** The parsed YAML (or JSON) file {@code name}. */
    JsonNode yaml(String name) {
        try (InputStream in = open(name)) {
            JsonNode root = YAML.readTree(in);
            if (root == null || !root.isObject()) {
                throw new ConfigException(where(name), "expected a YAML mapping");
            }
            return root;
        } catch (IOException e) {
            throw new ConfigException(List.of(ReadFailure.problem(e, where(name))));
        }
    }

    /** The CSV file {@code name}. */
    ProfileCsv csv(String name) {
        try (InputStream in = open(name)) {
            return ProfileCsv.read(in, where(name));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + where(name), e);
        }
    }

    private InputStream open(String name) throws IOException {
        if (!exists(name)) {
            throw new ConfigException(where(name), "missing profile file");
        }
        if (directory != null) {
            return Files.newInputStream(directory.resolve(name));
        }
        return getClass().getClassLoader().getResourceAsStream(resourceFolder + "/" + name);
    }
}
