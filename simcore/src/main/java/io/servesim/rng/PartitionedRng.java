package io.servesim.rng;

import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;

/**
 * Partitioned random numbers: one independent stream per subsystem, derived from
 * {@code (seed, subsystem name)} only. Adding or removing draws in one subsystem never shifts
 * another's stream, so e.g. adding a client does not perturb other clients' requests.
 *
 * <p>Each stream is a {@link SplittableRandom} seeded with SplitMix64(seed XOR FNV-1a-64(name)),
 * the same derivation idea as BLIS's {@code PartitionedRNG} (sim/rng.go).
 */
public final class PartitionedRng {
    private final long seed;

    public PartitionedRng(long seed) {
        this.seed = seed;
    }

    public long seed() {
        return seed;
    }

    /** Returns a fresh stream for {@code subsystem}; equal names give equal streams. */
    public SplittableRandom stream(String subsystem) {
        return new SplittableRandom(streamSeed(seed, subsystem));
    }

    /** The 64-bit seed of the stream for {@code subsystem}. */
    public static long streamSeed(long seed, String subsystem) {
        return mix64(seed ^ fnv1a64(subsystem));
    }

    /** FNV-1a over the UTF-8 bytes of {@code s}. */
    public static long fnv1a64(String s) {
        long h = 0xcbf29ce484222325L;
        for (byte b : s.getBytes(StandardCharsets.UTF_8)) {
            h ^= (b & 0xff);
            h *= 0x100000001b3L;
        }
        return h;
    }

    /** SplitMix64 finaliser (Steele, Lea, Flood 2014): a bijective 64-bit mixer. */
    public static long mix64(long z) {
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return z ^ (z >>> 31);
    }
}
