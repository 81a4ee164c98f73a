package io.servesim.sweep;

/** A word of a command line as a POSIX shell reads it back: as it is when plain, else single-quoted. */
public final class ShellWord {
    private ShellWord() {
    }

    /** {@code word}, single-quoted unless it holds only characters a shell leaves alone. */
    public static String quote(String word) {
        return word.matches("[A-Za-z0-9_./=,:+@%-]+") ? word : "'" + word.replace("'", "'\\''") + "'";
    }
}
