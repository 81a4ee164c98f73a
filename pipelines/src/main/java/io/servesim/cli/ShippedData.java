package io.servesim.cli;

import java.nio.file.Path;

/**
 * The measured data this repository ships, {@code sweeps/data} (sources and licences in its
 * {@code PROVENANCE.md}): under the checkout {@code scripts/servesim} runs from (it passes its root as the
 * {@code servesim.home} system property), else under the working directory.
 */
final class ShippedData {
    /** The launcher's system property naming the repository root. */
    static final String HOME_PROPERTY = "servesim.home";

    private ShippedData() {
    }

    /** {@code sweeps/data} of this checkout. */
    static Path dir() {
        String home = System.getProperty(HOME_PROPERTY);
        return (home == null || home.isBlank() ? Path.of("") : Path.of(home)).resolve("sweeps").resolve("data");
    }
}
