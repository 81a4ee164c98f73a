package io.servesim.report;

import io.servesim.exit.UsageException;
import io.servesim.io.OutputPath;
import io.servesim.sweep.OutputDir;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.UUID;

/**
 * Where a report page goes, under the rule every servesim output follows: never replace a file servesim did not write.
 * A page servesim wrote says so in its head ({@code <meta name="generator" content="servesim report">}, as
 * {@code page.html} has), so an earlier report is replaced and anything else at that path (the user's own
 * {@code report.html}) is refused, before any work. The page is written to a hidden temporary file in the same folder
 * and renamed into place, so a reader never sees half a page and an interruption leaves the old one.
 */
public final class ReportFile {
    private static final String GENERATOR = "<meta name=\"generator\" content=\"servesim report\">";
    private static final int HEAD_BYTES = 4096;

    private ReportFile() {
    }

    /**
     * Checks, before any work, that {@code target} (named by {@code flag}), a sweep report's place in its output
     * directory or its {@code --out}, may be written; a refusal of the default place names {@code report --out}.
     */
    public static void check(String flag, Path target) {
        check(flag, target, flag.equals("--out") ? "" : " (servesim report OUT_DIR --out FILE)");
    }

    /** Checks, before any work, that {@code target}, a path the user gave with {@code flag}, may be written. */
    public static void checkChosen(String flag, Path target) {
        check(flag, target, "");
    }

    private static void check(String flag, Path target, String hint) {
        if (Files.isSymbolicLink(target)) {
            // the page is renamed into place, which would replace the link (dangling or not) by a file
            throw new UsageException(flag + " " + target + ": a symbolic link; servesim writes a report only in place of a"
                    + " page of its own, never over a link: give the path it points to, or another" + hint);
        }
        Path parent = target.toAbsolutePath().normalize().getParent();
        if (parent != null) {
            OutputDir.refuseNested(parent, "report");
        }
        OutputPath.probeFile(flag, target);
        if (Files.exists(target) && !writtenByServesim(target)) {
            throw new UsageException(flag + " " + target + ": exists and is not a servesim report; servesim never replaces"
                    + " a file it did not write: move it away or write the report elsewhere" + hint);
        }
    }

    /**
     * Writes the self-contained page titled {@code title} drawing {@code data} ({@code meta} and {@code sections}, built
     * with {@link Charts}) to {@code target}, as {@link #write} does.
     */
    public static void writePage(Path target, String title, com.fasterxml.jackson.databind.JsonNode data) throws IOException {
        write(target, HtmlPage.render(title, data));
    }

    /** Writes {@code html} to {@code target} through a temporary file renamed into place. */
    static void write(Path target, String html) throws IOException {
        Path abs = target.toAbsolutePath().normalize();
        Files.createDirectories(abs.getParent());
        Path temp = abs.resolveSibling("." + abs.getFileName() + "." + UUID.randomUUID() + ".partial");
        try {
            Files.writeString(temp, html, StandardCharsets.UTF_8);
            Files.move(temp, abs, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(temp);
        }
    }

    /**
     * Deletes {@code file} if it is a report page servesim wrote (a page of results since replaced, which would show
     * them beside the new ones); returns whether it did. Any other file there is left alone.
     */
    public static boolean deleteStale(Path file) throws IOException {
        if (Files.isSymbolicLink(file) || !Files.isRegularFile(file) || !writtenByServesim(file)) {
            return false;
        }
        Files.delete(file);
        return true;
    }

    private static boolean writtenByServesim(Path file) {
        try (InputStream in = Files.newInputStream(file)) {
            return new String(in.readNBytes(HEAD_BYTES), StandardCharsets.UTF_8).contains(GENERATOR);
        } catch (IOException e) {
            return false;
        }
    }
}
