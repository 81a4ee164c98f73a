package io.servesim.usercode;

import java.util.Map;
import java.util.Set;

/**
 * What user code may use, in the source and when its classes link: the API it implements, and the value types of
 * {@code java.lang}, {@code java.util} and {@code java.util.function}, less what would make a run depend on anything
 * but its config and seed (the clock, the environment, unseeded randomness, identity or GC order, threads, I/O,
 * reflection, class loading). The source is checked type by type and member by member ({@link ReferenceCheck}); the
 * class loader, a second line, refuses the types outright ({@link RestrictedLoader}), allowing in addition the few
 * classes the compiled code of lambdas, string concatenation and records links to.
 */
final class Rules {
    /** Packages whose types user code may name (exactly these packages, not their subpackages). */
    private static final Set<String> PACKAGES = Set.of("java.lang", "java.util", "java.util.function");

    /** Types of those packages it may not use, with the reason. */
    private static final Map<String, String> DENIED_TYPES = Map.ofEntries(
            Map.entry("java.lang.System", "the clock, the environment and I/O"),
            Map.entry("java.lang.Runtime", "the JVM's state"),
            Map.entry("java.lang.Thread", "threads"),
            Map.entry("java.lang.ThreadGroup", "threads"),
            Map.entry("java.lang.ThreadLocal", "threads"),
            Map.entry("java.lang.InheritableThreadLocal", "threads"),
            Map.entry("java.lang.Process", "processes"),
            Map.entry("java.lang.ProcessBuilder", "processes"),
            Map.entry("java.lang.ProcessHandle", "processes"),
            Map.entry("java.lang.Class", "reflection"),
            Map.entry("java.lang.ClassLoader", "class loading"),
            Map.entry("java.lang.ClassValue", "reflection"),
            Map.entry("java.lang.Module", "reflection"),
            Map.entry("java.lang.ModuleLayer", "reflection"),
            Map.entry("java.lang.Package", "reflection"),
            Map.entry("java.lang.SecurityManager", "the JVM's state"),
            Map.entry("java.lang.StackWalker", "reflection"),
            Map.entry("java.lang.Compiler", "the JVM's state"),
            Map.entry("java.util.Timer", "threads"),
            Map.entry("java.util.TimerTask", "threads"),
            Map.entry("java.util.Scanner", "I/O"),
            Map.entry("java.util.Formatter", "I/O"),
            Map.entry("java.util.ServiceLoader", "class loading"),
            Map.entry("java.util.ResourceBundle", "class loading and I/O"),
            Map.entry("java.util.PropertyResourceBundle", "I/O"),
            Map.entry("java.util.ListResourceBundle", "class loading"),
            Map.entry("java.util.Calendar", "the clock"),
            Map.entry("java.util.GregorianCalendar", "the clock"),
            Map.entry("java.util.TimeZone", "the clock"),
            Map.entry("java.util.SimpleTimeZone", "the clock"),
            Map.entry("java.util.WeakHashMap", "garbage-collection order, which differs between runs"),
            Map.entry("java.util.IdentityHashMap", "identity hash order, which differs between runs"));

    /**
     * Members of allowed types it may not use, with the reason: {@code Type#name} (every overload) or
     * {@code Type#name/arity} (one overload; a constructor is {@code <init>}).
     */
    private static final Map<String, String> DENIED_MEMBERS = Map.ofEntries(
            Map.entry("java.lang.Object#getClass", "reflection"),
            Map.entry("java.lang.Object#hashCode", "an identity hash, which differs between runs: give the class its own"
                    + " hashCode, or key by a value"),
            Map.entry("java.lang.Object#toString", "an identity hash in its text, which differs between runs: give the"
                    + " class its own toString"),
            Map.entry("java.lang.String#format/2", "the machine's locale, a decimal comma on some: use"
                    + " String.format(Locale.ROOT, ...)"),
            Map.entry("java.lang.String#formatted", "the machine's locale, a decimal comma on some: use"
                    + " String.format(Locale.ROOT, ...)"),
            Map.entry("java.lang.Enum#hashCode", "an identity hash, which differs between runs: use ordinal(), or an"
                    + " EnumMap"),
            Map.entry("java.lang.Object#wait", "threads"),
            Map.entry("java.lang.Object#notify", "threads"),
            Map.entry("java.lang.Object#notifyAll", "threads"),
            Map.entry("java.lang.Enum#getDeclaringClass", "reflection"),
            Map.entry("java.lang.Throwable#printStackTrace", "I/O"),
            Map.entry("java.lang.Math#random", "unseeded randomness: keep a new java.util.Random(seed)"),
            Map.entry("java.lang.StrictMath#random", "unseeded randomness: keep a new java.util.Random(seed)"),
            Map.entry("java.lang.Integer#getInteger", "the JVM's system properties"),
            Map.entry("java.lang.Long#getLong", "the JVM's system properties"),
            Map.entry("java.lang.Boolean#getBoolean", "the JVM's system properties"),
            Map.entry("java.util.Random#<init>/0", "unseeded randomness: use new Random(seed)"),
            Map.entry("java.util.SplittableRandom#<init>/0", "unseeded randomness: use new SplittableRandom(seed)"),
            Map.entry("java.util.Date#<init>/0", "the clock"),
            Map.entry("java.util.UUID#randomUUID", "unseeded randomness"),
            Map.entry("java.util.Collections#shuffle/1", "unseeded randomness: use shuffle(list, new Random(seed))"),
            Map.entry("java.util.Arrays#parallelSort", "threads"),
            Map.entry("java.util.Arrays#parallelPrefix", "threads"),
            Map.entry("java.util.Arrays#parallelSetAll", "threads"),
            Map.entry("java.util.Locale#setDefault", "the JVM's state"));

    /**
     * What compiled code links to beyond the source's own names: the bootstraps of lambdas, string concatenation and
     * records, and {@code Class} (enum {@code valueOf}, {@code assert}); the source may not name them.
     */
    private static final Set<String> LINKED = Set.of("java.lang.Class", "java.lang.invoke.LambdaMetafactory",
            "java.lang.invoke.StringConcatFactory", "java.lang.invoke.MethodHandles$Lookup",
            "java.lang.invoke.MethodHandle", "java.lang.invoke.MethodType", "java.lang.invoke.CallSite",
            "java.lang.invoke.TypeDescriptor", "java.lang.runtime.ObjectMethods");

    private Rules() {
    }

    /** Why the source may not name type {@code name} (a binary or canonical name), or null when it may. */
    static String typeRefused(String name) {
        String denied = DENIED_TYPES.get(outermost(name));
        if (denied != null) {
            return denied;
        }
        String pkg = packageOf(name);
        return PACKAGES.contains(pkg) ? null : packageReason(pkg);
    }

    /**
     * Why the source may not use member {@code name} with {@code arity} parameters of allowed type {@code owner}
     * (constructors are {@code <init>}), or null when it may.
     */
    static String memberRefused(String owner, String name, int arity) {
        String all = DENIED_MEMBERS.get(owner + "#" + name);
        return all != null ? all : DENIED_MEMBERS.get(owner + "#" + name + "/" + arity);
    }

    /** Whether compiled user code may link to JDK class {@code binaryName}. */
    static boolean linkAllowed(String binaryName) {
        if (LINKED.contains(binaryName)) {
            return true;
        }
        return PACKAGES.contains(packageOf(binaryName)) && !DENIED_TYPES.containsKey(outermost(binaryName));
    }

    /** Why a package outside {@link #PACKAGES} is refused, by what it is for. */
    private static String packageReason(String pkg) {
        if (pkg.startsWith("java.io") || pkg.startsWith("java.nio")) {
            return "I/O";
        }
        if (pkg.startsWith("java.net")) {
            return "the network";
        }
        if (pkg.startsWith("java.time")) {
            return "the clock";
        }
        if (pkg.startsWith("java.util.concurrent")) {
            return "threads";
        }
        if (pkg.startsWith("java.lang.reflect") || pkg.startsWith("java.lang.invoke") || pkg.startsWith("java.lang.ref")) {
            return "reflection";
        }
        if (pkg.equals("java.util.stream")) {
            return "streams (use loops and java.util's collections)";
        }
        return "outside java.lang, java.util and java.util.function";
    }

    /** The package of a canonical or binary name ({@code java.util.Map.Entry}, {@code java.util.Map$Entry}). */
    static String packageOf(String name) {
        String top = outermost(name);
        int dot = top.lastIndexOf('.');
        return dot < 0 ? "" : top.substring(0, dot);
    }

    /** The top-level type of a nested type's binary name ({@code java.util.Map$Entry} -> {@code java.util.Map}). */
    private static String outermost(String name) {
        int dollar = name.indexOf('$');
        return dollar < 0 ? name : name.substring(0, dollar);
    }
}
