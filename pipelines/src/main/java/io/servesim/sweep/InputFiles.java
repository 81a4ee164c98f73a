package io.servesim.sweep;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The contents of the files a resolved run config reads, as one fingerprint for its cell id ({@link Grid#cellId}): every
 * string of the config that names an existing file or folder (relative to the folder its paths resolve against, or
 * absolute), with what it holds: a file's SHA-256, a folder's files' (a profile's tables), and for a YAML or JSON file
 * the files its own strings name in turn, relative to its folder (a workload file's trace, a policy bundle's code).
 * Each is listed under the config path that named it, not its location, so the same inputs moved to another folder
 * or machine give the same fingerprint. So a cell id changes when a workload, trace, policy source or any other
 * input changes, and a resumed sweep never keeps cells computed from an input since edited.
 *
 * <p>One instance serves one expansion: a file's fingerprint is computed once, however many cells read it.
 */
final class InputFiles {
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static final int MAX_PATH_CHARS = 4096;
    private final Map<Path, String> fingerprints = new HashMap<>();

    /** The fingerprint of the files {@code tree} reads, its relative paths against {@code baseDir}; empty when none. */
    String of(JsonNode tree, Path baseDir) {
        StringBuilder out = new StringBuilder();
        walk(tree, baseDir, "", out, new HashSet<>());
        return out.toString();
    }

    private void walk(JsonNode node, Path dir, String at, StringBuilder out, Set<Path> open) {
        if (node.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                walk(e.getValue(), dir, at + "/" + e.getKey(), out, open);
            }
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                walk(node.get(i), dir, at + "/" + i, out, open);
            }
        } else if (node.isTextual()) {
            Path p = named(dir, node.asText());
            if (p != null && open.add(p)) {
                out.append(at).append('=').append(fingerprint(p, open)).append('\n');
                open.remove(p);
            }
        }
    }

    /** The existing file or folder {@code value} names from {@code dir}, normalized; null if it names none. */
    private static Path named(Path dir, String value) {
        String v = value.trim();
        if (v.isEmpty() || v.equals(".") || v.equals("..") || v.length() > MAX_PATH_CHARS || v.indexOf('\n') >= 0) {
            return null;
        }
        try {
            Path p = dir.resolve(v).toAbsolutePath().normalize();
            return Files.exists(p) ? p : null;
        } catch (InvalidPathException e) {
            return null;
        }
    }

    private String fingerprint(Path p, Set<Path> open) {
        String known = fingerprints.get(p);
        if (known != null) {
            return known;
        }
        String f;
        if (Files.isDirectory(p)) {
            StringBuilder sb = new StringBuilder("folder{");
            try (Stream<Path> files = Files.walk(p)) {
                List<Path> sorted = files.filter(Files::isRegularFile).sorted().toList();
                for (Path file : sorted) {
                    sb.append(p.relativize(file).toString().replace('\\', '/')).append(':').append(sha256(file)).append(';');
                }
            } catch (IOException e) {
                throw new UncheckedIOException("reading " + p + " to identify the cells that read it", e);
            }
            f = sb.append('}').toString();
        } else {
            f = sha256(p) + nested(p, open);
        }
        fingerprints.put(p, f);
        return f;
    }

    /** For a YAML or JSON file, the files its strings name, relative to its folder; else nothing. */
    private String nested(Path file, Set<Path> open) {
        String name = file.getFileName().toString().toLowerCase(Locale.ROOT);
        if (!(name.endsWith(".yaml") || name.endsWith(".yml") || name.endsWith(".json"))) {
            return "";
        }
        JsonNode tree;
        try {
            tree = YAML.readTree(file.toFile());
        } catch (IOException e) {
            return ""; // not a document: its bytes are its fingerprint, and binding the config reports the error
        }
        if (tree == null) {
            return "";
        }
        StringBuilder inner = new StringBuilder();
        walk(tree, file.getParent(), "", inner, open);
        return inner.isEmpty() ? "" : "{" + inner + "}";
    }

    private static String sha256(Path file) {
        try (InputStream in = new DigestInputStream(Files.newInputStream(file), MessageDigest.getInstance("SHA-256"))) {
            in.transferTo(java.io.OutputStream.nullOutputStream());
            return HexFormat.of().formatHex(((DigestInputStream) in).getMessageDigest().digest());
        } catch (IOException e) {
            throw new UncheckedIOException("reading " + file + " to identify the cells that read it", e);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
