package io.servesim.fidelity;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.servesim.config.ConfigException;
import io.servesim.config.ReadFailure;
import io.servesim.config.StrictJson;
import io.servesim.workload.trace.TraceFormat;
import io.servesim.workload.trace.TraceReader;
import io.servesim.workload.trace.TraceRow;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/**
 * A real vLLM run directory in the format of casys-kaist/LLMServingSim {@code bench/} results:
 * <ul>
 *   <li>{@code meta.json}: engine settings ({@link EngineSettings}); its {@code schema_version} must be 1, and its
 *       {@code dataset_hash}, when recorded, the SHA-256 of the workload file below;</li>
 *   <li>{@code requests.jsonl}: one line per request, in workload order, with the measured
 *       timestamps ({@link MeasuredRequest});</li>
 *   <li>the workload replayed, vLLM benchmark JSONL ({@code input_toks, output_toks,
 *       arrival_time_ns, input_tok_ids}): the one file named {@code workload*.jsonl}, or, when there
 *       are several, the one named after {@code meta.json dataset_path}.</li>
 * </ul>
 * The workload and {@code requests.jsonl} must describe the same requests line by line (same count,
 * same input and output lengths). The workload is held in memory (one int per prompt token), so that
 * calibration can replay it many times without re-reading it. Every problem is a
 * {@link ConfigException} naming the missing file, or the file, line and field (a malformed workload
 * line is the {@code vllm} trace reader's {@link io.servesim.workload.TraceFormatException}).
 *
 * @param directory    the run directory
 * @param settings     engine settings
 * @param workloadFile the workload JSONL
 * @param workload     the workload's requests, read by the {@code vllm} trace reader
 * @param measured     measured requests, in workload order
 */
public record RealRun(Path directory, EngineSettings settings, Path workloadFile, List<TraceRow> workload,
                      List<MeasuredRequest> measured) {
    private static final ObjectMapper JSON = StrictJson.json();
    /** The version of LLMServingSim's bench {@code meta.json} this reads (its {@code schema_version}). */
    static final int SCHEMA_VERSION = 1;

    public RealRun {
        workload = List.copyOf(workload);
        measured = List.copyOf(measured);
    }

    /** Reads and checks {@code dir}. */
    public static RealRun read(Path dir) {
        if (!Files.isDirectory(dir)) {
            throw new ConfigException(dir.toString(), (Files.exists(dir) ? "not a directory" : "does not exist")
                    + " (expected a run directory with meta.json, requests.jsonl and a workload*.jsonl)");
        }
        Path metaFile = required(dir, "meta.json", "the vLLM engine settings of the run");
        JsonNode meta;
        try {
            meta = JSON.readTree(metaFile.toFile());
        } catch (IOException e) {
            throw new ConfigException(List.of(ReadFailure.problem(e, metaFile)));
        }
        if (meta == null || !meta.isObject()) {
            throw new ConfigException(metaFile.toString(), "expected a JSON object");
        }
        JsonNode version = meta.get("schema_version");
        if (version == null || version.isNull()) {
            throw new ConfigException(metaFile + " schema_version", "required: the version of LLMServingSim's bench format"
                    + " (bench/core) the run was recorded in, which its recorder writes; valid: " + SCHEMA_VERSION);
        }
        if (!(version.isIntegralNumber() && version.asInt() == SCHEMA_VERSION)) {
            throw new ConfigException(metaFile + " schema_version", version + ": replay-real reads version " + SCHEMA_VERSION
                    + " of LLMServingSim's bench format (bench/core); valid: " + SCHEMA_VERSION);
        }
        EngineSettings settings = EngineSettings.parse(meta, metaFile.toString());
        Path requests = required(dir, "requests.jsonl", "the measured per-request timestamps");
        Path workloadFile = workload(dir, meta.path("dataset_path").asText(""));
        checkHash(meta.get("dataset_hash"), workloadFile, metaFile);
        List<MeasuredRequest> measured = measured(requests);
        JsonNode count = meta.get("num_requests");
        if (count != null && !count.isNull() && !(count.isIntegralNumber() && count.asLong() == measured.size())) {
            throw new ConfigException(metaFile + " num_requests", count + ": but " + requests + " holds " + measured.size()
                    + " requests (a run cut short or files of two runs)");
        }
        List<TraceRow> rows = rows(workloadFile);
        match(workloadFile, rows, measured);
        return new RealRun(dir, settings, workloadFile, rows, measured);
    }

    /**
     * Refuses a workload file other than the one the run replayed: {@code dataset_hash} is the SHA-256 of the dataset
     * file, hex (LLMServingSim {@code bench/core/runner.py}, {@code _hash_file}). A run that records none is not checked.
     */
    private static void checkHash(JsonNode recorded, Path workloadFile, Path metaFile) {
        if (recorded == null || recorded.isNull()) {
            return;
        }
        String path = metaFile + " dataset_hash";
        if (!recorded.isTextual() || !recorded.asText().matches("[0-9a-fA-F]{64}")) {
            throw new ConfigException(path, "must be the SHA-256 of the workload file, 64 hexadecimal digits, got " + recorded);
        }
        String actual;
        try {
            actual = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(Files.readAllBytes(workloadFile)));
        } catch (IOException e) {
            throw new ConfigException(List.of(ReadFailure.problem(e, workloadFile)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
        if (!actual.equalsIgnoreCase(recorded.asText())) {
            throw new ConfigException(path, recorded.asText() + ", but " + workloadFile + " hashes to " + actual + ": it is"
                    + " not the workload the run replayed (edited since, or another run's); put the run's own workload file"
                    + " beside it, or remove dataset_hash from meta.json to replay this file anyway");
        }
    }

    private static List<TraceRow> rows(Path workloadFile) {
        List<TraceRow> rows = new ArrayList<>();
        try (TraceReader reader = TraceFormat.VLLM.open(workloadFile, new TraceReader.Options(false, true))) {
            for (TraceRow row = reader.next(); row != null; row = reader.next()) {
                rows.add(row);
            }
        }
        return rows;
    }

    private static void match(Path workloadFile, List<TraceRow> rows, List<MeasuredRequest> measured) {
        if (rows.size() != measured.size()) {
            throw new ConfigException(workloadFile.toString(), "the workload has " + rows.size()
                    + " requests but requests.jsonl has " + measured.size());
        }
        for (int i = 0; i < rows.size(); i++) {
            TraceRow r = rows.get(i);
            MeasuredRequest m = measured.get(i);
            if (r.prompt().length() != m.inputTokens() || r.outputTokens() != m.outputTokens()) {
                throw new ConfigException(workloadFile + ":" + r.lineNo(), "request " + (i + 1) + " has " + r.prompt().length()
                        + " input / " + r.outputTokens() + " output tokens but requests.jsonl request " + (i + 1) + " ("
                        + m.requestId() + ") has " + m.inputTokens() + " / " + m.outputTokens());
            }
        }
    }

    private static Path required(Path dir, String name, String what) {
        Path file = dir.resolve(name);
        if (!Files.isRegularFile(file)) {
            throw new ConfigException(file.toString(), "missing file: " + what);
        }
        return file;
    }

    private static Path workload(Path dir, String datasetPath) {
        List<Path> candidates = new ArrayList<>();
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, "workload*.jsonl")) {
            files.forEach(candidates::add);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + dir, e);
        }
        candidates.sort(null);
        if (candidates.isEmpty()) {
            throw new ConfigException(dir.resolve("workload*.jsonl").toString(), "missing file: the replayed workload, vLLM "
                    + "benchmark JSONL (input_toks, output_toks, arrival_time_ns, input_tok_ids)");
        }
        if (candidates.size() == 1) {
            return candidates.get(0);
        }
        String dataset = Path.of(datasetPath.isBlank() ? "." : datasetPath).getFileName().toString();
        for (Path p : candidates) {
            if (!datasetPath.isBlank() && p.getFileName().toString().endsWith(dataset)) {
                return p;
            }
        }
        throw new ConfigException(dir.toString(), "several workload*.jsonl files and none named after meta.json dataset_path '"
                + datasetPath + "': " + candidates);
    }

    private static List<MeasuredRequest> measured(Path file) {
        List<MeasuredRequest> out = new ArrayList<>();
        java.util.Map<String, Integer> lineOfId = new java.util.HashMap<>();
        try (BufferedReader in = Files.newBufferedReader(file)) {
            int lineNo = 0;
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                lineNo++;
                if (line.isBlank()) {
                    continue;
                }
                String where = file + ":" + lineNo;
                try {
                    MeasuredRequest r = MeasuredRequest.parse(JSON.readTree(line), where);
                    Integer first = lineOfId.putIfAbsent(r.requestId(), lineNo);
                    if (first != null) {
                        // rows keyed by request_id downstream would collide
                        throw new ConfigException(where, "duplicate request_id '" + r.requestId() + "' (first at line " + first
                                + "): each measured request has an id of its own");
                    }
                    out.add(r);
                } catch (JsonProcessingException e) {
                    throw new ConfigException(where, "not valid JSON: " + ReadFailure.parserMessage(e));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
        if (out.isEmpty()) {
            throw new ConfigException(file.toString(), "no requests");
        }
        return out;
    }
}
