package io.servesim.sweep;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Collection;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * The two markers that say what an output directory of a sweep or a plan holds, each a JSON file listing the files
 * servesim wrote there (paths relative to the directory), so a later sweep deletes exactly those
 * and never a file of the user's:
 * <ul>
 *   <li>{@code _SUCCESS}: written last, when every dataset is in place. Hadoop, Spark and Beam
 *       users look for it; like the S3A committer's, it is a JSON manifest rather than empty.</li>
 *   <li>{@code _INCOMPLETE}: present while a sweep without earlier results runs, after it was
 *       interrupted or failed, and while datasets are being moved into place. Its {@code note} says
 *       how to finish the sweep.</li>
 * </ul>
 * Both are written to a temporary name and renamed, so a reader never sees half a marker.
 *
 * @param marker which marker this is
 * @param note   human-readable state (empty for {@code _SUCCESS})
 * @param files  files servesim wrote, relative to the output directory, sorted
 */
public record OutputManifest(Marker marker, String note, Set<String> files) {
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    private static final String WRITER = "servesim";

    /** The marker file names. */
    public enum Marker {
        SUCCESS("_SUCCESS"), INCOMPLETE("_INCOMPLETE");

        public final String file;

        Marker(String file) {
            this.file = file;
        }
    }

    public OutputManifest {
        files = new TreeSet<>(files);
    }

    public static OutputManifest success(Collection<String> files) {
        return new OutputManifest(Marker.SUCCESS, "", new TreeSet<>(files));
    }

    public static OutputManifest incomplete(String note, Collection<String> files) {
        return new OutputManifest(Marker.INCOMPLETE, note, new TreeSet<>(files));
    }

    /**
     * The marker {@code m} in {@code dir}, if it exists and servesim wrote it (a JSON object whose
     * {@code written_by} is servesim); an empty Hadoop {@code _SUCCESS} or any other file is not ours.
     */
    public static Optional<OutputManifest> read(Path dir, Marker m) {
        Path f = dir.resolve(m.file);
        if (!Files.isRegularFile(f)) {
            return Optional.empty();
        }
        try {
            JsonNode root = JSON.readTree(f.toFile());
            if (root == null || !root.isObject() || !WRITER.equals(root.path("written_by").asText())
                    || !root.path("files").isArray()) {
                return Optional.empty();
            }
            Set<String> files = new TreeSet<>();
            for (JsonNode n : root.get("files")) {
                if (!n.isTextual() || !insideTheFolder(n.asText()) || Files.isDirectory(dir.resolve(n.asText()),
                        LinkOption.NOFOLLOW_LINKS) || Files.isSymbolicLink(dir.resolve(n.asText()))) {
                    // servesim lists only files of the folder: a manifest naming another, a folder or a link was not
                    // written by it, and replacing results deletes what their manifest lists
                    return Optional.empty();
                }
                files.add(n.asText());
            }
            return Optional.of(new OutputManifest(m, root.path("note").asText(""), files));
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /** Whether {@code rel} is a path inside a folder as servesim writes one: relative, normalised, never out of it. */
    static boolean insideTheFolder(String rel) {
        if (rel.isEmpty() || rel.contains("\\")) {
            return false;
        }
        try {
            Path p = Path.of(rel);
            return !p.isAbsolute() && p.normalize().equals(p) && !p.startsWith("..");
        } catch (java.nio.file.InvalidPathException e) {
            return false;
        }
    }

    /** The temporary file a marker is written to before its rename, as {@link #write} names it. */
    static final Pattern BEING_WRITTEN = Pattern.compile("\\._(SUCCESS|INCOMPLETE)\\.[0-9a-f-]{36}\\.tmp");

    /** Writes this marker into {@code dir} atomically (temporary name, then rename). */
    public void write(Path dir) throws IOException {
        ObjectNode root = JSON.createObjectNode();
        root.put("written_by", WRITER);
        if (!note.isEmpty()) {
            root.put("note", note);
        }
        files.forEach(root.putArray("files")::add);
        // a name of servesim's own, unique: a user's _SUCCESS.tmp is never written over
        Path tmp = dir.resolve("." + marker.file + "." + UUID.randomUUID() + ".tmp");
        try {
            JSON.writeValue(tmp.toFile(), root);
            Files.move(tmp, dir.resolve(marker.file), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(tmp);
        }
    }
}
