package io.servesim.testing;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Where tests find the repository's own files: the root of this checkout, found from the test's working
 * directory (a module folder under Maven) by walking up to the folder that holds {@code sweeps/data/PROVENANCE.md}.
 * Every measured file a test reads is in {@code sweeps/data} (sources in its PROVENANCE.md), so no test depends
 * on a path outside the repository and none skips for want of data.
 */
public final class RepoFiles {
    private static final Path ROOT = findRoot();

    private RepoFiles() {
    }

    /** The repository root (absolute, normalized). */
    public static Path root() {
        return ROOT;
    }

    /** {@code relative} (e.g. {@code "sweeps/configs/llama8b-h100.yaml"}) under the repository root. */
    public static Path path(String relative) {
        return ROOT.resolve(relative);
    }

    /** {@code relative} under the shipped measured data, {@code sweeps/data} (e.g. {@code "traces/azure2023"}). */
    public static Path data(String relative) {
        return ROOT.resolve("sweeps/data").resolve(relative);
    }

    /** The real vLLM run of Llama-3.1-8B on one RTX PRO 6000 that the repository ships (see PROVENANCE.md). */
    public static Path realRun() {
        return data("validation/vllm_rtxpro6000_llama31_8b");
    }

    private static Path findRoot() {
        Path start = Path.of(System.getProperty("user.dir")).toAbsolutePath().normalize();
        for (Path p = start; p != null; p = p.getParent()) {
            if (Files.isRegularFile(p.resolve("sweeps/data/PROVENANCE.md")) && Files.isRegularFile(p.resolve("pom.xml"))) {
                return p;
            }
        }
        throw new IllegalStateException("no servesim checkout (a folder with pom.xml and sweeps/data/PROVENANCE.md) at or above "
                + start);
    }
}
