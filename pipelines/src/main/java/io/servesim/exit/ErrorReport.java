package io.servesim.exit;

import io.servesim.config.ConfigException;
import io.servesim.workload.TraceFormatException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * How every {@code servesim} command reports a failure: {@code servesim <command>: <message>}, where the
 * message is the chain of causes' messages joined by {@code ": "} (duplicates and Java class names left
 * out), on one line; a config error lists each problem with its config path on its own indented line.
 * The stack trace follows only with the global {@code --debug} flag. The exit code says whose fault it
 * was: {@link Main#CONFIG_ERROR} (2) for bad configs, flags, inputs or trace lines
 * ({@link ConfigException}, {@link UsageException}, {@link TraceFormatException} anywhere in the chain),
 * {@link Main#RUNTIME_ERROR} (1) for anything else.
 */
public final class ErrorReport {
    /**
     * A qualified exception or error class name as {@code Throwable.toString()} puts it in messages, with its colon; a
     * message that names another type on purpose ({@code java.nio.file.Files: not allowed in a policy}) keeps it.
     */
    private static final Pattern CLASS_NAME = Pattern.compile("\\b(?:java|javax|jdk|sun|com|org|io|net|picocli)\\."
            + "(?:[a-z_][a-z0-9_]*\\.)*[A-Z][A-Za-z0-9_$]*(?<=Exception|Error|Throwable)\\b:?\\s*");

    private final String command;
    private final PrintWriter err;
    private final boolean debug;

    /**
     * @param command the subcommand's name, e.g. {@code run}
     * @param err     where the report goes
     * @param debug   print the stack trace too (the global {@code --debug} flag)
     */
    public ErrorReport(String command, PrintWriter err, boolean debug) {
        this.command = command;
        this.err = err;
        this.debug = debug;
    }

    /** The same over a {@link PrintStream}. */
    public ErrorReport(String command, PrintStream err, boolean debug) {
        this(command, new PrintWriter(err, true), debug);
    }

    /** Reports {@code error}; returns the exit code (see the class comment). */
    public int report(Throwable error) {
        return report(null, error);
    }

    /**
     * Reports {@code error} after {@code context} (what failed, e.g. {@code invalid config x.yaml}; null for
     * none); returns the exit code.
     */
    public int report(String context, Throwable error) {
        String prefix = "servesim " + command + ": " + (context == null ? "" : context + ": ");
        ConfigException config = find(error, ConfigException.class);
        if (config != null && config.problems().size() > 1) {
            err.println(prefix.substring(0, prefix.length() - 2) + ":");
            config.problems().forEach(p -> err.println("  " + withoutClassNames(p.toString())));
        } else {
            err.println(prefix + describe(error));
        }
        if (debug) {
            error.printStackTrace(err);
        }
        err.flush();
        return exitCode(error);
    }

    /** A note that is not an error ({@code servesim <command>: note: <text>}), on the same stream. */
    public void note(String text) {
        err.println("servesim " + command + ": note: " + text);
        err.flush();
    }

    /** Prints a warning: something the run will do that the user may not expect (a renamed key, a cost left null). */
    public void warning(String text) {
        err.println("servesim " + command + ": warning: " + text);
        err.flush();
    }

    /** {@link Main#CONFIG_ERROR} when the user must fix an input, else {@link Main#RUNTIME_ERROR}. */
    public static int exitCode(Throwable error) {
        return find(error, ConfigException.class) != null || find(error, UsageException.class) != null
                || find(error, TraceFormatException.class) != null ? ExitCode.CONFIG_ERROR : ExitCode.RUNTIME_ERROR;
    }

    /** The messages of {@code error} and its causes, outermost first, joined by {@code ": "}, without class names. */
    public static String describe(Throwable error) {
        List<String> parts = new ArrayList<>();
        for (Throwable t : chain(error)) {
            String m = message(t);
            if (m == null || m.isBlank()) {
                continue;
            }
            String clean = withoutClassNames(m).strip();
            if (clean.isEmpty() || parts.stream().anyMatch(p -> p.contains(clean))) {
                continue;
            }
            parts.add(clean);
        }
        return parts.isEmpty() ? "internal error without a message (--debug shows the stack trace)" : String.join(": ", parts);
    }

    private static String message(Throwable t) {
        if (t instanceof FileSystemException f) {
            return (f.getFile() == null ? "" : f.getFile() + ": ") + cause(f)
                    + (f.getOtherFile() == null ? "" : " (" + f.getOtherFile() + ")");
        }
        return t.getMessage();
    }

    /**
     * Why a file operation failed, without the path ({@code permission denied}, {@code read-only file system},
     * {@code no such file or directory}, ...), for a message that names the path and the flag itself.
     */
    public static String cause(java.io.IOException e) {
        if (e instanceof FileSystemException f) {
            return f instanceof NoSuchFileException ? "no such file or directory"
                    : f instanceof AccessDeniedException ? "permission denied"
                    : f instanceof FileAlreadyExistsException ? "already exists"
                    : f instanceof NotDirectoryException ? "not a directory"
                    : f instanceof DirectoryNotEmptyException ? "directory not empty"
                    : f.getReason() != null ? f.getReason().toLowerCase(java.util.Locale.ROOT) : "file system error";
        }
        String m = e.getMessage();
        return m == null || m.isBlank() ? "input/output error" : withoutClassNames(m).strip();
    }

    /**
     * Whether {@code error} is an input/output failure that names no file (a full disk's "No space left on device"
     * from a stream's write), so the command must say which file it was writing.
     */
    public static boolean isUnnamedIoError(Throwable error) {
        boolean io = false;
        for (Throwable t : chain(error)) {
            if (t instanceof FileSystemException f && f.getFile() != null) {
                return false;
            }
            io |= t instanceof java.io.IOException;
        }
        return io;
    }

    private static String withoutClassNames(String s) {
        return CLASS_NAME.matcher(s).replaceAll("");
    }

    private static List<Throwable> chain(Throwable error) {
        Set<Throwable> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        List<Throwable> out = new ArrayList<>();
        for (Throwable t = error; t != null && seen.add(t); t = t.getCause()) {
            out.add(t);
        }
        return out;
    }

    private static <T extends Throwable> T find(Throwable error, Class<T> type) {
        for (Throwable t : chain(error)) {
            if (type.isInstance(t)) {
                return type.cast(t);
            }
        }
        return null;
    }
}
