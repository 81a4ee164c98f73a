package io.servesim.workload.trace;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.servesim.config.StrictJson;
import io.servesim.engine.TokenSequence;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Mooncake JSONL traces (kvcache-ai/Mooncake FAST25-release/traces, Mooncake FAST'25):
 * {@code timestamp} (ms), {@code input_length}, {@code output_length}, {@code hash_ids}. Each hash id
 * names one {@value #BLOCK_TOKENS}-token block and equal ids are equal content, so the prompt is one
 * segment per id ({@code 512} tokens, the last one {@code input_length - 512 (n - 1)}) with a content
 * id derived from the hash id, salted per file: equal ids give equal KV block hashes whenever the
 * engine's block size divides 512. Without {@code hash_ids} the prompt is unique.
 *
 * <p>Optional multi-turn fields (the Mooncake-style session convention of NVIDIA Dynamo's mocker
 * replay and AIPerf): {@code session_id} (rows with equal ids are consecutive turns of one session)
 * and {@code delay} (ms from the previous turn's completion to this turn's release). As Dynamo's
 * loader reads them (ai-dynamo/dynamo @ 0230a315, {@code lib/mocker/src/loadgen/trace.rs}
 * {@code Trace::from_mooncake}): a session's first turn arrives at its timestamp and may not set a
 * delay; a follow-up without {@code delay} takes the gap between its timestamp and its previous
 * turn's, and may omit its timestamp (then its delay is 0 unless given); a delay is never negative.
 * Sessions are numbered in order of first appearance ({@link TraceRow#sessionId()}).
 *
 * <p>A prompt's tokens past the hash ids that another row of the file also starts with are declared
 * unshared ({@link SharedHashPrefixes}), so the KV cache indexes only blocks another request can hit.
 */
public final class MooncakeTraceReader extends JsonTraceReader {
    /** Tokens per hash id. */
    public static final int BLOCK_TOKENS = 512;
    /** The keys a line may carry; the reader skips any other (a misspelt {@code delay} would then be lost silently). */
    static final List<String> FIELDS = List.of("timestamp", "input_length", "output_length", "hash_ids", "session_id",
            "delay");
    private static final ObjectMapper HEAD_JSON = StrictJson.json();

    private final Path path;
    /** Built on the first row read (a validation that reads no row does not scan the file). */
    private SharedHashPrefixes shared;
    /** The sessions seen so far, by the trace's {@code session_id}: O(sessions in the file). */
    private final Map<String, SessionSoFar> sessions = new HashMap<>();

    /** What a follow-up turn needs of its session's earlier rows. */
    private static final class SessionSoFar {
        final long id;
        int rows;
        /** The last timestamp a row of the session gave, in microseconds, or {@link TraceRow#NO_TIMESTAMP}. */
        long lastTimestampUs = TraceRow.NO_TIMESTAMP;

        SessionSoFar(long id) {
            this.id = id;
        }
    }

    public MooncakeTraceReader(Path path, Options options) {
        super(path, options);
        this.path = path;
    }

    @Override
    TraceRow parse(JsonNode n, long lineNo) throws BadLine {
        double timestampMs = number(n, "timestamp", false, Double.NaN);
        int input = tokens(integer(n, "input_length", 1), "input_length");
        int output = tokens(integer(n, "output_length", 0), "output_length");
        JsonNode hashIds = array(n, "hash_ids");
        long[] raw = hashIds == null ? null : hashIds(hashIds, input);
        JsonNode session = n.get("session_id");
        if (session != null && !session.isNull() && !session.isTextual() && !session.isIntegralNumber()) {
            // asText would make every object and array one session "", and true the session "true"
            throw new BadLine("session_id must be a string or an integer, got " + session);
        }
        String sessionKey = session == null || session.isNull() ? null : session.asText();
        return row(lineNo, timestampMs, input, output, raw, sessionKey, number(n, "delay", false, Double.NaN));
    }

    /**
     * The plain line: numbers where numbers belong (lengths as ints in range, hash ids as longs),
     * {@code session_id} a string or null. Anything else goes through {@link #parse(JsonNode, long)}.
     */
    @Override
    TraceRow parsePlain(JsonParser p, long lineNo) throws IOException {
        double timestampMs = 0;
        boolean timestamp = false;
        long input = -1;
        long output = -1;
        long[] raw = null;
        String sessionKey = null;
        double delayMs = Double.NaN;
        JsonToken t;
        for (t = p.nextToken(); t == JsonToken.FIELD_NAME; t = p.nextToken()) {
            String name = p.currentName();
            JsonToken v = p.nextToken();
            if (v == JsonToken.VALUE_NULL && !name.equals("input_length") && !name.equals("output_length")) {
                // null reads as absent: no timestamp (0), unique prompt, no session, no delay
                switch (name) {
                    case "timestamp" -> timestamp = false;
                    case "hash_ids" -> raw = null;
                    case "session_id" -> sessionKey = null;
                    case "delay" -> delayMs = Double.NaN;
                    default -> { }
                }
                continue;
            }
            switch (name) {
                case "timestamp" -> {
                    timestampMs = plainNumber(p, v);
                    timestamp = true;
                    if (timestampMs < 0) {
                        return null;
                    }
                }
                case "input_length" -> input = plainInteger(p, v, 1, Integer.MAX_VALUE);
                case "output_length" -> output = plainInteger(p, v, 0, Integer.MAX_VALUE);
                case "hash_ids" -> {
                    raw = plainIds(p, v);
                    if (raw == null) {
                        return null;
                    }
                }
                case "session_id" -> {
                    if (v != JsonToken.VALUE_STRING) {
                        return null;
                    }
                    sessionKey = p.getText();
                }
                case "delay" -> {
                    delayMs = plainNumber(p, v);
                    if (delayMs < 0) {
                        return null;
                    }
                }
                default -> p.skipChildren();
            }
        }
        if (t != JsonToken.END_OBJECT || input < 0 || output < 0
                || raw != null && raw.length != (input + BLOCK_TOKENS - 1) / BLOCK_TOKENS) {
            return null;
        }
        try {
            return row(lineNo, timestamp ? timestampMs : Double.NaN, (int) input, (int) output, raw, sessionKey, delayMs);
        } catch (BadLine e) {
            return null; // the tree path reports it
        }
    }

    /**
     * A note per key of the first {@code lines} lines of {@code path} that is none of {@link #FIELDS}, which the reader
     * skips: its first line, how many of those lines carry it, and the keys a line may carry. Lines that are not JSON
     * objects are left to the reader, which refuses or skips them.
     */
    public static List<String> ignoredKeys(Path path, int lines) {
        Map<String, long[]> seen = new LinkedHashMap<>(); // key -> {first line, lines}
        long lineNo = 0;
        try (BufferedReader in = Files.newBufferedReader(path)) {
            for (String line = in.readLine(); line != null && lineNo < lines; line = in.readLine()) {
                lineNo++;
                JsonNode n;
                try {
                    n = HEAD_JSON.readTree(line);
                } catch (IOException e) {
                    continue;
                }
                if (n == null || !n.isObject()) {
                    continue;
                }
                long at = lineNo;
                for (var it = n.fieldNames(); it.hasNext(); ) {
                    String key = it.next();
                    if (!FIELDS.contains(key)) {
                        seen.computeIfAbsent(key, k -> new long[] {at, 0})[1]++;
                    }
                }
            }
        } catch (IOException e) {
            return List.of(); // the run reports an unreadable file
        }
        List<String> notes = new ArrayList<>();
        for (var e : seen.entrySet()) {
            long first = e.getValue()[0];
            long count = e.getValue()[1];
            notes.add(String.format(Locale.ROOT, "key '%s' (line %d%s of the first %d) is not a Mooncake trace"
                    + " key and is ignored; a line's keys: %s", e.getKey(), first,
                    count == 1 ? "" : " and " + (count - 1) + " more", lineNo, String.join(", ", FIELDS)));
        }
        return notes;
    }

    /** The ids of a {@code hash_ids} array of ints and longs (the current token its start), else null. */
    private static long[] plainIds(JsonParser p, JsonToken start) throws IOException {
        if (start != JsonToken.START_ARRAY) {
            return null;
        }
        long[] ids = new long[32];
        int n = 0;
        for (JsonToken e = p.nextToken(); e != JsonToken.END_ARRAY; e = p.nextToken()) {
            if (e != JsonToken.VALUE_NUMBER_INT || !isPlainInt(p)) {
                return null;
            }
            if (n == ids.length) {
                ids = Arrays.copyOf(ids, 2 * n);
            }
            ids[n++] = p.getLongValue();
        }
        return Arrays.copyOf(ids, n);
    }

    /**
     * The row both paths build from a line's values ({@code raw}: its hash ids as the file gives them, or null;
     * {@code timestampMs} and {@code delayMs}: NaN when absent). Checks the session rules (see the class comment)
     * before it records the row in its session, so a refused line leaves the sessions as they were.
     */
    private TraceRow row(long lineNo, double timestampMs, int input, int output, long[] raw, String sessionKey,
                         double delayMs) throws BadLine {
        boolean stamped = !Double.isNaN(timestampMs);
        long timestampUs = stamped ? Math.round(timestampMs * 1000) : TraceRow.NO_TIMESTAMP;
        SessionSoFar s = sessionKey == null ? null : sessions.get(sessionKey);
        long delayUs = 0;
        if (s == null) {
            if (!stamped && options.timestampsRequired()) {
                throw new BadLine("missing field timestamp" + (sessionKey == null ? ""
                        : " (the first turn of session " + sessionKey + " arrives at it)"));
            }
            if (sessionKey != null && !Double.isNaN(delayMs) && delayMs != 0) {
                throw new BadLine("delay on the first turn of session " + sessionKey + ": a first turn arrives at its"
                        + " timestamp, only a follow-up is released a delay after its previous turn completes");
            }
        } else if (!Double.isNaN(delayMs)) {
            delayUs = Math.round(delayMs * 1000);
        } else if (stamped && s.lastTimestampUs != TraceRow.NO_TIMESTAMP) {
            delayUs = timestampUs - s.lastTimestampUs;
            if (delayUs < 0) {
                throw new BadLine("timestamp " + timestampUs + " us is before the previous turn of session " + sessionKey
                        + " (" + s.lastTimestampUs + " us), so the delay it implies is negative; give delay instead");
            }
        }
        TokenSequence prompt = raw == null ? TokenSequence.unique(uniqueContent(lineNo), input) : blocks(raw, input);
        if (sessionKey == null) {
            return new TraceRow(lineNo, stamped ? timestampUs : 0, prompt, output);
        }
        if (s == null) {
            s = new SessionSoFar(sessions.size());
            sessions.put(sessionKey, s);
        }
        if (stamped) {
            s.lastTimestampUs = timestampUs;
        }
        int turn = s.rows++;
        // a first turn without a timestamp (concurrency mode) is stamped 0, as a row without a session
        return new TraceRow(lineNo, stamped || turn == 0 ? Math.max(timestampUs, 0) : TraceRow.NO_TIMESTAMP, prompt,
                output, s.id, turn, delayUs);
    }

    /** The hash ids of a {@code hash_ids} array, checked: one per block of {@code input}, each an integer. */
    private static long[] hashIds(JsonNode hashIds, int input) throws BadLine {
        int n = hashIds.size();
        int needed = (int) ((input + (long) BLOCK_TOKENS - 1) / BLOCK_TOKENS); // long: input may be near Integer.MAX_VALUE
        if (n != needed) {
            throw new BadLine("hash_ids has " + n + " ids but input_length " + input + " needs " + needed
                    + " blocks of " + BLOCK_TOKENS + " tokens");
        }
        long[] raw = new long[n];
        for (int i = 0; i < n; i++) {
            JsonNode h = hashIds.get(i);
            if (!h.isIntegralNumber()) {
                throw new BadLine("hash_ids[" + i + "] must be an integer, got " + h);
            }
            raw[i] = h.asLong();
        }
        return raw;
    }

    /** The prompt of {@code raw} hash ids (one per block of {@code input} tokens). */
    private TokenSequence blocks(long[] raw, int input) {
        int n = raw.length;
        long[] ids = new long[n];
        int[] lengths = new int[n];
        for (int i = 0; i < n; i++) {
            ids[i] = blockContent(raw[i]);
            lengths[i] = i < n - 1 ? BLOCK_TOKENS : input - BLOCK_TOKENS * (n - 1);
        }
        if (shared == null) {
            shared = SharedHashPrefixes.of(path);
        }
        // only the blocks another row starts with can be hit by another request (see SharedHashPrefixes)
        return TokenSequence.ofSegments(ids, lengths, (int) Math.min(input, (long) BLOCK_TOKENS * shared.sharedBlocks(raw)));
    }
}
