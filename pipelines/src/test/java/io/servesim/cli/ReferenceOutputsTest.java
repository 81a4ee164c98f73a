package io.servesim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Reference outputs: every case of {@code src/test/resources/reference/cases.yaml} (example configs
 * across routing, admission, priority and scheduling policies, latency models, preemption and
 * every example workload) is run through {@code servesim run} and must reproduce its recorded
 * summary JSON and per-request rows exactly. Rows are compared as a SHA-256 over the columns the
 * reference names (the CSV columns at recording time), so a new column does not disturb the old
 * ones; likewise every recorded summary key must keep its value and new keys may appear.
 * {@code -Dservesim.reference.record=true} re-records (for a change meant to alter results, which
 * its commit then explains).
 */
class ReferenceOutputsTest {
    static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final Path DIR = Path.of("src", "test", "resources", "reference");
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    private static final boolean RECORD = Boolean.getBoolean("servesim.reference.record");

    record Case(String name, List<String> args) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Case> cases() throws IOException {
        List<Case> out = new ArrayList<>();
        for (JsonNode c : YAML.readTree(DIR.resolve("cases.yaml").toFile())) {
            List<String> args = new ArrayList<>();
            c.get("args").forEach(a -> args.add(a.asText().startsWith("sweeps/") ? ROOT.resolve(a.asText()).toString() : a.asText()));
            out.add(new Case(c.get("name").asText(), args));
        }
        return out.stream();
    }

    @ParameterizedTest
    @MethodSource("cases")
    void reproducesItsRecordedOutput(Case c, @TempDir Path tmp) throws Exception {
        Path rows = tmp.resolve("requests.csv");
        List<String> args = new ArrayList<>(List.of("run"));
        args.addAll(c.args());
        args.addAll(List.of("--requests-out", rows.toString()));
        CliRun.Result r = CliRun.exec(args.toArray(String[]::new));
        assertEquals(0, r.code(), r.err());
        JsonNode summary = JSON.readTree(r.out());
        List<String> lines = Files.readAllLines(rows);
        Path file = DIR.resolve(c.name() + ".json");
        if (RECORD) {
            List<String> columns = List.of(lines.get(0).split(",", -1));
            ObjectNode ref = JSON.createObjectNode();
            ref.set("summary", summary);
            ObjectNode req = ref.putObject("requests");
            req.put("rows", lines.size() - 1);
            columns.forEach(req.putArray("columns")::add);
            req.put("sha256", digest(lines, columns));
            JSON.writeValue(file.toFile(), ref);
            return;
        }
        assertTrue(Files.exists(file), "no reference for " + c.name() + ": record with -Dservesim.reference.record=true");
        JsonNode ref = JSON.readTree(file.toFile());
        List<String> diffs = new ArrayList<>();
        compare("", ref.get("summary"), summary, diffs);
        assertEquals(List.of(), diffs, c.name() + ": summary differs from its reference");
        List<String> columns = new ArrayList<>();
        ref.at("/requests/columns").forEach(n -> columns.add(n.asText()));
        assertEquals(ref.at("/requests/rows").asInt(), lines.size() - 1, c.name() + ": request rows");
        assertEquals(ref.at("/requests/sha256").asText(), digest(lines, columns), c.name() + ": request rows differ");
    }

    /** Every key of {@code expected} (recursively) must hold the same value in {@code actual}. */
    private static void compare(String path, JsonNode expected, JsonNode actual, List<String> diffs) {
        if (expected.isObject()) {
            if (actual == null || !actual.isObject()) {
                diffs.add(path + ": expected an object, got " + actual);
                return;
            }
            for (Iterator<Map.Entry<String, JsonNode>> it = expected.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                compare(path + "/" + e.getKey(), e.getValue(), actual.get(e.getKey()), diffs);
            }
        } else if (!expected.equals(actual)) {
            diffs.add(path + ": expected " + expected + ", got " + actual);
        }
    }

    /** SHA-256 over the named columns of every row (CSV values joined by tabs, rows by newlines). */
    private static String digest(List<String> lines, List<String> columns) throws Exception {
        List<String> header = List.of(lines.get(0).split(",", -1));
        int[] idx = new int[columns.size()];
        for (int i = 0; i < idx.length; i++) {
            idx[i] = header.indexOf(columns.get(i));
            if (idx[i] < 0) {
                fail("column " + columns.get(i) + " is gone from the request rows");
            }
        }
        MessageDigest md = MessageDigest.getInstance("SHA-256");
        for (String line : lines.subList(1, lines.size())) {
            String[] cells = line.split(",", -1);
            StringBuilder sb = new StringBuilder();
            for (int i : idx) {
                sb.append(cells[i]).append('\t');
            }
            md.update(sb.append('\n').toString().getBytes(StandardCharsets.UTF_8));
        }
        return HexFormat.of().formatHex(md.digest());
    }
}
