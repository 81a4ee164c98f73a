package io.servesim.disagg;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.servesim.engine.Request;
import io.servesim.engine.RequestTags;
import io.servesim.engine.TokenSequence;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The fair-share KV link: transfer times alone and under shared bandwidth. */
class KvLinkTest {
    /** 50 GB/s = 50,000 bytes per microsecond. */
    private static final double BYTES_PER_US = new TransferSpec(0, 50, Topology.PER_PAIR).bytesPerUs();

    @Test
    void aTransferAloneTakesItsBytesOverTheBandwidth() {
        // 1,000 tokens of Llama-3.1-8B at TP 1: 32 layers x 2 (K, V) x 8 KV heads x 128 dims x 2 bytes = 131,072 B/token,
        // so 131,072,000 bytes; at 50,000 B/us that is 2,621.44 us -> the link's event at ceil = 2,622 us.
        KvLink link = new KvLink(BYTES_PER_US);
        Transfer t = transfer(131_072_000);
        link.add(t, 0);
        assertEquals(2622, link.nextDoneUs());
        List<Transfer> done = new ArrayList<>();
        link.advance(2622);
        link.takeDone(done::add);
        assertEquals(List.of(t), done);
        assertEquals(0, link.size());
    }

    @Test
    void twoTransfersAtOnceTakeTwiceAsLongEach() {
        // Two transfers of 100,000,000 bytes start together: each moves at 25,000 B/us (half of 50,000),
        // so both finish at 100,000,000 / 25,000 = 4,000 us, twice the 2,000 us one takes alone.
        KvLink link = new KvLink(BYTES_PER_US);
        Transfer a = transfer(100_000_000);
        Transfer b = transfer(100_000_000);
        link.add(a, 0);
        link.add(b, 0);
        assertEquals(4000, link.nextDoneUs());
        List<Transfer> done = new ArrayList<>();
        link.advance(4000);
        link.takeDone(done::add);
        assertEquals(List.of(a, b), done);

        KvLink alone = new KvLink(BYTES_PER_US);
        alone.add(transfer(100_000_000), 0);
        assertEquals(2000, alone.nextDoneUs());
    }

    @Test
    void sharesAreRecomputedWhenATransferJoinsOrLeaves() {
        // A (100 MB) starts at 0 alone: 50,000 B/us. B (25 MB) joins at 1,000 us, when A has 50 MB left; both move at
        // 25,000 B/us, so B finishes at 1,000 + 25,000,000 / 25,000 = 2,000 us, A then has 25 MB left and the whole
        // link again: it finishes at 2,000 + 25,000,000 / 50,000 = 2,500 us (alone it would have at 2,000 us).
        KvLink link = new KvLink(BYTES_PER_US);
        Transfer a = transfer(100_000_000);
        Transfer b = transfer(25_000_000);
        link.add(a, 0);
        int before = link.version();
        link.add(b, 1000);
        assertEquals(before + 1, link.version(), "a join changes the shares: the earlier event is stale");
        assertEquals(2000, link.nextDoneUs());
        List<Transfer> done = new ArrayList<>();
        link.advance(2000);
        link.takeDone(done::add);
        assertEquals(List.of(b), done);
        assertEquals(2500, link.nextDoneUs());
        link.advance(2500);
        link.takeDone(done::add);
        assertEquals(List.of(b, a), done);
    }

    private static Transfer transfer(double bytes) {
        Request r = new Request(1, RequestTags.DEFAULT, TokenSequence.unique(1, 16), 1, 1, 0, 0, true);
        Transfer t = new Transfer(r, r.prefillStage(), 0);
        t.streamBytes = bytes;
        t.remainingBytes = bytes;
        return t;
    }
}
