package io.servesim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.servesim.config.Overrides;
import io.servesim.exit.ExitCode;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Bad inputs that must fail cleanly, one row per input, read from the tables in
 * {@code src/test/resources/bad-inputs/}. Each row runs {@link Main#execute} in-process and checks
 * the exit code, that stderr holds every expected fragment (the exact config path or flag and,
 * where there is one, the list of valid choices) and that stderr shows no Java internals.
 *
 * <p>A row has:
 * <ul>
 *   <li>{@code case}: a unique name;</li>
 *   <li>{@code base} (optional): a config of {@code bases.yaml} written to {@code {dir}/cfg.yaml}
 *       after applying {@code set} (path -> YAML value, as {@code --set} would; null removes a
 *       required key); {@code args} then default to {@code [validate, "{cfg}"]};</li>
 *   <li>{@code rundir: true} (optional): a valid two-line vLLM run written to {@code {dir}/run}
 *       ({@code files} may then replace its files);</li>
 *   <li>{@code files} (optional): file name (relative to {@code {dir}}) -> content;</li>
 *   <li>{@code bytes} (optional): file name -> content in base64, for a file that is not UTF-8 text;</li>
 *   <li>{@code args}: the command line; {@code {dir}} is the row's own temporary directory,
 *       {@code {cfg}} its config, {@code {cells}} a small sweep {@code cells/} Parquet directory
 *       with columns {@code rate} (labels 1, 2, 3), {@code seed} and {@code ttft_p99_ms}, and {@code {sweep}} its
 *       parent, a complete sweep output (with {@code _SUCCESS} and {@code _SWEEP.yaml}: one axis, {@code rate});</li>
 *   <li>{@code exit}: expected exit code (default 2, a configuration error);</li>
 *   <li>{@code expect}: fragments stderr must contain (placeholders replaced);</li>
 *   <li>{@code absent} (optional): fragments it must not contain (a follow-on error that would only
 *       repeat the first one);</li>
 *   <li>{@code java_types: true} (optional): the message names Java types on purpose (a code policy's source: the
 *       interface to implement, a type it may not use), so qualified type names are no internals there; exception
 *       names and stack frames still are.</li>
 * </ul>
 */
class BadInputTest {
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static final List<String> TABLES = List.of("config", "policies", "workload", "agentic", "trace", "sweep", "cli", "plan",
            "evolve");
    /** What must never reach a user: class names and stack frames. */
    private static final Pattern INTERNALS = Pattern.compile("java\\.|javax\\.|io\\.servesim\\.|com\\.fasterxml|Exception|\\tat ");
    /** What must not reach a user even where the message names Java types on purpose. */
    private static final Pattern INTERNALS_BUT_TYPES = Pattern.compile("com\\.fasterxml|Exception|\\tat ");

    @TempDir
    static Path root;

    private static Path cells;

    private record Row(String name, JsonNode spec) {
    }

    @BeforeAll
    static void cellsFixture() throws Exception {
        cells = Files.createDirectories(root.resolve("fixture").resolve("cells"));
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE cells AS SELECT * FROM (VALUES ('1', 1, 10.0), ('2', 1, 20.0), ('3', 1, 30.0))"
                    + " t(rate, seed, ttft_p99_ms)");
            st.execute("COPY cells TO '" + cells.resolve("part-0.parquet") + "' (FORMAT parquet)");
        }
        // the sidecars that make fixture/ a complete sweep output with one axis, rate, for servesim report
        Files.writeString(cells.getParent().resolve("_SUCCESS"), "{\"written_by\": \"servesim\", \"files\": []}\n");
        Files.writeString(cells.getParent().resolve("_SWEEP.yaml"), "name: fixture\naxes:\n- name: rate\n  values:\n"
                + "    '1': {workload.aggregate_rate: 1}\n    '2': {workload.aggregate_rate: 2}\n    '3': {workload.aggregate_rate: 3}\n");
    }

    static Stream<Named<Row>> rows() {
        List<Named<Row>> out = new ArrayList<>();
        for (String table : TABLES) {
            for (JsonNode spec : read(table + ".yaml")) {
                String name = table + ": " + spec.path("case").asText();
                out.add(Named.of(name, new Row(name, spec)));
            }
        }
        return out.stream();
    }

    @Test
    void rowNamesAreUniqueAndTheTableIsLarge() {
        Set<String> names = new HashSet<>();
        rows().forEach(r -> assertTrue(names.add(r.getPayload().name()), "duplicate case " + r.getPayload().name()));
        assertTrue(names.size() >= 110, "rows: " + names.size());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rows")
    void failsCleanly(Row row) throws Exception {
        JsonNode spec = row.spec();
        Path dir = Files.createTempDirectory(root, "case");
        prepare(spec, dir);
        List<String> args = new ArrayList<>();
        JsonNode given = spec.get("args");
        if (given == null) {
            args.addAll(List.of("validate", "{cfg}"));
        } else {
            given.forEach(a -> args.add(a.asText()));
        }
        String[] argv = args.stream().map(a -> fill(a, dir)).toArray(String[]::new);

        CliRun.Result r = CliRun.exec(argv);
        int code = r.code();
        String stderr = r.err();
        String context = String.join(" ", argv) + "\nstderr:\n" + stderr;
        assertEquals(spec.path("exit").asInt(ExitCode.CONFIG_ERROR), code, context);
        JsonNode expect = spec.path("expect");
        assertFalse(expect.isEmpty(), "row without expected fragments");
        for (JsonNode fragment : expect) {
            String f = fill(fragment.asText(), dir);
            assertTrue(stderr.contains(f), "missing '" + f + "' in\n" + context);
        }
        for (JsonNode fragment : spec.path("absent")) {
            String f = fill(fragment.asText(), dir);
            assertFalse(stderr.contains(f), "unexpected '" + f + "' in\n" + context);
        }
        Pattern internals = spec.path("java_types").asBoolean(false) ? INTERNALS_BUT_TYPES : INTERNALS;
        assertFalse(internals.matcher(stderr).find(), "Java internals on stderr:\n" + context);
    }

    /** Writes the row's config, run directory and files into {@code dir}. */
    private static void prepare(JsonNode spec, Path dir) throws IOException {
        if (spec.has("base")) {
            JsonNode base = read("bases.yaml").get(spec.get("base").asText());
            if (base == null) {
                throw new IllegalArgumentException("unknown base " + spec.get("base"));
            }
            ObjectNode cfg = base.deepCopy();
            spec.path("set").fields().forEachRemaining(e -> Overrides.set(cfg, e.getKey(), e.getValue().deepCopy()));
            Files.writeString(dir.resolve("cfg.yaml"), fill(YAML.writeValueAsString(cfg), dir));
        }
        if (spec.path("rundir").asBoolean(false)) {
            read("bases.yaml").get("rundir").fields().forEachRemaining(e -> write(dir.resolve("run").resolve(e.getKey()),
                    e.getValue().asText()));
        }
        for (Map.Entry<String, JsonNode> f : (Iterable<Map.Entry<String, JsonNode>>) spec.path("files")::fields) {
            write(dir.resolve(f.getKey()), fill(f.getValue().asText(), dir));
        }
        for (Map.Entry<String, JsonNode> f : (Iterable<Map.Entry<String, JsonNode>>) spec.path("bytes")::fields) {
            Files.write(dir.resolve(f.getKey()), Base64.getDecoder().decode(f.getValue().asText()));
        }
    }

    private static void write(Path file, String content) {
        try {
            Files.createDirectories(file.getParent());
            Files.writeString(file, content);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String fill(String s, Path dir) {
        return s.replace("{cfg}", dir.resolve("cfg.yaml").toString()).replace("{dir}", dir.toString())
                .replace("{cells}", cells.toString()).replace("{sweep}", cells.getParent().toString());
    }

    private static JsonNode read(String resource) {
        try (InputStream in = BadInputTest.class.getResourceAsStream("/bad-inputs/" + resource)) {
            if (in == null) {
                throw new IllegalStateException("missing test resource bad-inputs/" + resource);
            }
            return YAML.readTree(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
