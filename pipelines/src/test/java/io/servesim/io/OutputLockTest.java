package io.servesim.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.servesim.exit.UsageException;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A folder's {@code _LOCK}: servesim's own record is taken over, anything else named so is never emptied. */
class OutputLockTest {
    private static final PrintStream ERR = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);

    @Test
    void aLockItsWriterLeftIsTakenOverAndEmptiedOnRelease(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve(OutputLock.FILE), "{\"written_by\":\"servesim\",\"pid\":1,\"command\":\"sweep x\"}");
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        try (OutputLock lock = OutputLock.acquire(dir, "sweep y", new PrintStream(err, true, StandardCharsets.UTF_8))) {
            assertTrue(Files.readString(dir.resolve(OutputLock.FILE)).contains("\"command\":\"sweep y\""));
        }
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("was left by a writer that is no longer running (pid 1"));
        assertEquals(0, Files.size(dir.resolve(OutputLock.FILE)));
    }

    @Test
    void aUsersFileNamedLikeTheLockIsRefusedAndKept(@TempDir Path dir) throws Exception {
        Path mine = Files.writeString(dir.resolve(OutputLock.FILE), "my lock notes\n");
        UsageException e = assertThrows(UsageException.class, () -> OutputLock.acquire(dir, "sweep y", ERR));
        assertTrue(e.getMessage().contains("holds something servesim did not write"), e.getMessage());
        assertThrows(UsageException.class, () -> OutputLock.refuseIfHeld(dir));
        assertEquals("my lock notes\n", Files.readString(mine));
    }

    @Test
    void aSymbolicLinkNamedLikeTheLockIsRefusedAndItsTargetKept(@TempDir Path dir) throws Exception {
        Path precious = Files.writeString(dir.resolve("precious.txt"), "precious\n");
        Path out = Files.createDirectories(dir.resolve("out"));
        Files.createSymbolicLink(out.resolve(OutputLock.FILE), precious);
        UsageException e = assertThrows(UsageException.class, () -> OutputLock.acquire(out, "sweep y", ERR));
        assertTrue(e.getMessage().contains("is a symbolic link"), e.getMessage());
        assertThrows(UsageException.class, () -> OutputLock.refuseIfHeld(out));
        assertEquals("precious\n", Files.readString(precious));
    }
}
