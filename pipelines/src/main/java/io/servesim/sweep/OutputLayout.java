package io.servesim.sweep;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * What {@link OutputDir} needs to know about one kind of output folder servesim writes (a sweep's, a capacity
 * plan's) to decide, before anything runs, whether it may write there: the files of its own it may find, which of
 * them are read as data, and how to tell whether a folder holds the same work (its definition's ids) so that an
 * interrupted one can be resumed and a finished one replaced. A sweep's is {@link SweepLayout}.
 */
public interface OutputLayout {
    /** What the messages call it: {@code sweep}, {@code plan}. */
    String noun();

    /** What tells two of them apart in a message: {@code sweep grid}, {@code plan}. */
    String identityNoun();

    /** Its definition file, beside its results and first in its staging folder ({@code _SWEEP.yaml}). */
    String definitionFile();

    /** Names it writes at the top of the folder besides the markers and the definition ({@code _SUMMARY.json}). */
    Set<String> reservedFiles();

    /** Folders whose every file is read as part of its results ({@code cells/}): a file of the user's there is refused. */
    List<String> dataFolders();

    /**
     * Whether {@code rel} (relative to a staging folder that holds one of these, whose definition lists
     * {@code stagedIds}) is a file servesim writes there; hidden temporary files at the top of the staging folder always
     * are.
     */
    boolean isStagingFile(String rel, Set<String> stagedIds);

    /** The ids the definition file in {@code folder} lists, if it is a readable one of this kind. */
    Optional<Set<String>> ids(Path folder);

    /** The ids of the output asked for now (a sweep's cell ids). */
    Set<String> idsNow();

    /**
     * Whether the definition file in {@code folder} describes the output asked for now: the same ids and whatever else
     * its rows are laid out by (a sweep's axis columns and cell order).
     */
    default boolean describesNow(Path folder) {
        return ids(folder).map(idsNow()::equals).orElse(false);
    }

    /** Finished units kept in a staging folder (a sweep's checkpointed cells): none means nothing is lost by starting over. */
    int finished(Path staging);

    /** In words, how far the interrupted one in {@code staging} (of {@code stagedIds}) got: {@code 2 of 3 cells finished}. */
    String progress(Path staging, Set<String> stagedIds);

    /** In words, how the interrupted one in {@code staging} differs from the one asked for now. */
    String difference(Path staging) throws IOException;

    /** Refuses (an {@link OutputDir.RefusedException}) to resume the one in {@code staging} for a reason besides its ids. */
    void checkResume(Path staging) throws IOException;
}
