package io.servesim.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.servesim.exit.UsageException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** An output folder's check before any work: it creates and removes only what was not there. */
class OutputPathTest {
    @Test
    void aFolderThatDoesNotExistIsProvedWritableAndLeftAsItWas(@TempDir Path tmp) {
        Path dir = tmp.resolve("a/b/c");
        OutputPath.probeDirectory("--output", dir);
        assertFalse(Files.exists(tmp.resolve("a")), "the folders the check created are removed again");
    }

    @Test
    void aSymbolicLinkToNothingIsRefusedAndKept(@TempDir Path tmp) throws Exception {
        Path link = Files.createSymbolicLink(tmp.resolve("out"), tmp.resolve("gone"));
        UsageException e = assertThrows(UsageException.class, () -> OutputPath.probeDirectory("--output", link));
        assertTrue(e.getMessage().startsWith("--output " + link + ": a symbolic link to nothing (" + tmp.resolve("gone")
                + "), not a directory"), e.getMessage());
        assertTrue(Files.isSymbolicLink(link), "the link is the user's: it stays");
        assertEquals(tmp.resolve("gone"), Files.readSymbolicLink(link));
    }

    @Test
    void aFolderBelowASymbolicLinkToNothingFailsWithoutTouchingTheLink(@TempDir Path tmp) throws Exception {
        Path link = Files.createSymbolicLink(tmp.resolve("out"), tmp.resolve("gone"));
        assertThrows(UsageException.class, () -> OutputPath.probeDirectory("--output", link.resolve("sub")));
        assertTrue(Files.exists(link, LinkOption.NOFOLLOW_LINKS) && Files.isSymbolicLink(link));
        assertFalse(Files.exists(tmp.resolve("gone")));
    }
}
