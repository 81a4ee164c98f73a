package io.servesim.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;

/**
 * Debian's chromium, headless, for the report's browser tests: {@link #find} locates it on the PATH
 * ({@code scripts/install-chromium} installs it; {@code .ci/run} does so before the tests) and skips the test saying
 * so when there is none; {@link #load} opens a local file ({@code --dump-dom}, console messages logged to stderr) and
 * {@link #screenshot} writes a PNG. No network: only {@code file://} pages, which reference no URL.
 */
final class HeadlessChromium {
    /** Simulated time the page may use before the DOM is dumped (ECharts renders synchronously well before). */
    private static final int VIRTUAL_TIME_BUDGET_MS = 5000;
    private static final long TIMEOUT_S = 120;
    /** How Chromium logs a page's console message (any level) with {@code --enable-logging=stderr}. */
    private static final Pattern CONSOLE = Pattern.compile(":CONSOLE[^\\]]*\\] (.*)");
    private final String binary;

    private HeadlessChromium(String binary) {
        this.binary = binary;
    }

    /** What a page load gave: the DOM after scripts ran and the page's console messages. */
    record Page(String dom, List<String> console) {
        /** The text of element {@code id} ({@code <pre id=...>text</pre>}), HTML entities of JSON undone. */
        String text(String id) {
            Matcher m = Pattern.compile("<[a-z]+ id=\"" + id + "\"[^>]*>(.*?)</", Pattern.DOTALL).matcher(dom);
            if (!m.find()) {
                throw new AssertionError("no element #" + id + " in the DOM");
            }
            return m.group(1).replace("&quot;", "\"").replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&");
        }
    }

    /** The browser on the PATH; skips the calling test, saying how to install it, when there is none. */
    static HeadlessChromium find() {
        for (String name : new String[] {"chromium", "chromium-browser"}) {
            for (String dir : System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator)) {
                Path candidate = Path.of(dir.isEmpty() ? "." : dir, name);
                if (Files.isExecutable(candidate)) {
                    return new HeadlessChromium(candidate.toString());
                }
            }
        }
        return Assumptions.abort("skipped: no headless chromium on the PATH; scripts/install-chromium installs Debian's"
                + " (root or sudo, Debian's package archive), as .ci/run does before the tests");
    }

    /** Loads {@code html} and returns its DOM after the scripts ran, and its console messages. */
    Page load(Path html, Path profile) throws IOException, InterruptedException {
        Result r = run(profile, "--enable-logging=stderr", "--v=0", "--dump-dom", html.toUri().toString());
        List<String> console = new ArrayList<>();
        r.err().lines().forEach(l -> {
            Matcher m = CONSOLE.matcher(l);
            if (m.find()) {
                console.add(m.group(1));
            }
        });
        return new Page(r.out(), console);
    }

    /** Writes a {@code width} x {@code height} screenshot of {@code html} to {@code png}. */
    void screenshot(Path html, Path png, int width, int height, Path profile) throws IOException, InterruptedException {
        run(profile, "--hide-scrollbars", "--window-size=" + width + "," + height, "--screenshot=" + png.toAbsolutePath(),
                html.toUri().toString());
        if (!Files.isRegularFile(png)) {
            throw new AssertionError("chromium wrote no screenshot " + png);
        }
    }

    private record Result(String out, String err) {
    }

    private Result run(Path profile, String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(binary, "--headless", "--disable-gpu", "--no-sandbox",
                "--no-first-run", "--disable-extensions", "--user-data-dir=" + profile.toAbsolutePath(),
                "--virtual-time-budget=" + VIRTUAL_TIME_BUDGET_MS));
        cmd.addAll(List.of(args));
        Path out = Files.createTempFile(profile.getParent(), "chromium", ".out");
        Path err = Files.createTempFile(profile.getParent(), "chromium", ".err");
        Process p = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        if (!p.waitFor(TIMEOUT_S, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("chromium did not finish in " + TIMEOUT_S + " s: " + cmd);
        }
        return new Result(Files.readString(out), Files.readString(err));
    }
}
