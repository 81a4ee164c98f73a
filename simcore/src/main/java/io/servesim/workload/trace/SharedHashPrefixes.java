package io.servesim.workload.trace;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.servesim.rng.PartitionedRng;
import it.unimi.dsi.fastutil.longs.Long2IntOpenHashMap;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * For a Mooncake trace file: how many leading {@code hash_ids} of a row some other row of the file
 * starts with too. Only those blocks can ever be a prefix-cache hit for another request (vLLM's block
 * hashes chain over the whole prefix, {@code kv_cache_utils.hash_block_tokens}), so the rest of a
 * prompt is content no other request contains ({@link io.servesim.engine.TokenSequence#sharedTokens()}):
 * the KV cache need not index it, as it does not index a synthetic prompt's unique suffix. One pass
 * over the file before the replay (Jackson's streaming parser, {@code hash_ids} only) counts the rows
 * sharing each chain of leading ids (capped at 2); memory is one entry per distinct chain, at most the
 * file's number of hash ids. Lines it cannot read are left out: the replay reports (or skips) them.
 *
 * <p>A scan depends only on the file, so the process keeps the last few ({@link #of}): a sweep's
 * validation and each of its cells replay the same trace, and the quickstart's 12 cells scanned its
 * 4,000 rows 24 times (a tenth of the cells' CPU, with Jackson's parser compiled while they ran).
 */
final class SharedHashPrefixes {
    private static final JsonFactory JSON = new JsonFactory();
    private static final long ROOT = 0x6D6F_6F6E_6361_6B65L;

    /** Rows starting with each chain of ids (1, or 2 for two or more). */
    private final Long2IntOpenHashMap rows = new Long2IntOpenHashMap();
    private long[] scratch = new long[64];

    /** Trace files scanned last, by {@link FileKey}; the least recently used is dropped past {@link #CACHED_FILES}. */
    private static final int CACHED_FILES = 8;
    private static final Map<FileKey, SharedHashPrefixes> SCANNED = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<FileKey, SharedHashPrefixes> eldest) {
            return size() > CACHED_FILES;
        }
    };

    /** A file's identity and version: a file rewritten since (other size or modification time) is scanned again. */
    private record FileKey(Path realPath, Object fileKey, long sizeBytes, FileTime modified) {
        static FileKey of(Path path) throws IOException {
            Path real = path.toRealPath();
            BasicFileAttributes a = Files.readAttributes(real, BasicFileAttributes.class);
            return new FileKey(real, a.fileKey(), a.size(), a.lastModifiedTime());
        }
    }

    private SharedHashPrefixes() {
    }

    /**
     * The scan of {@code path}: this process's earlier scan of the same file version, or a new one.
     * Safe from any thread: a finished scan is only read ({@link #sharedBlocks}); two threads asking
     * for a new file at once may both scan it, to the same result.
     */
    static SharedHashPrefixes of(Path path) {
        FileKey key;
        try {
            key = FileKey.of(path);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read trace " + path, e);
        }
        synchronized (SCANNED) {
            SharedHashPrefixes known = SCANNED.get(key);
            if (known != null) {
                return known;
            }
        }
        SharedHashPrefixes scanned = scan(path);
        synchronized (SCANNED) {
            SCANNED.put(key, scanned);
        }
        return scanned;
    }

    private static SharedHashPrefixes scan(Path path) {
        SharedHashPrefixes s = new SharedHashPrefixes();
        try (BufferedReader in = Files.newBufferedReader(path)) {
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                int n = s.readIds(line);
                long h = ROOT;
                for (int j = 0; j < n; j++) {
                    h = chain(h, s.scratch[j]);
                    s.rows.merge(h, 1, (a, b) -> Math.min(2, a + b));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read trace " + path, e);
        }
        return s;
    }

    /** Leading ids of {@code hashIds} (as the file gives them) that another row of the file also starts with. */
    int sharedBlocks(long[] hashIds) {
        long h = ROOT;
        int shared = 0;
        for (int j = 0; j < hashIds.length; j++) {
            h = chain(h, hashIds[j]);
            if (rows.get(h) < 2) {
                break;
            }
            shared = j + 1;
        }
        return shared;
    }

    private static long chain(long h, long id) {
        return PartitionedRng.mix64(h * 31 + id);
    }

    /** The line's top-level {@code hash_ids} into {@link #scratch}; returns how many (0 when absent or unreadable). */
    private int readIds(String line) {
        try (JsonParser p = JSON.createParser(line)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                return 0;
            }
            for (JsonToken t = p.nextToken(); t == JsonToken.FIELD_NAME; t = p.nextToken()) {
                String name = p.currentName();
                JsonToken value = p.nextToken();
                if (!"hash_ids".equals(name) || value != JsonToken.START_ARRAY) {
                    p.skipChildren();
                    continue;
                }
                int n = 0;
                for (JsonToken e = p.nextToken(); e != JsonToken.END_ARRAY; e = p.nextToken()) {
                    if (e != JsonToken.VALUE_NUMBER_INT) {
                        return 0;
                    }
                    if (n == scratch.length) {
                        scratch = java.util.Arrays.copyOf(scratch, 2 * n);
                    }
                    scratch[n++] = p.getLongValue();
                }
                return n;
            }
            return 0;
        } catch (IOException e) {
            return 0;
        }
    }
}
