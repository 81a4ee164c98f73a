package io.servesim.usercode;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.servesim.config.ConfigException;
import io.servesim.policy.api.Admission;
import io.servesim.policy.api.AdmissionPolicy;
import io.servesim.policy.api.AutoscalePolicy;
import io.servesim.policy.api.Instances;
import io.servesim.policy.api.PriorityPolicy;
import io.servesim.policy.api.RequestView;
import io.servesim.policy.api.RoutingPolicy;
import io.servesim.policy.api.ScaleView;
import io.servesim.policy.api.SchedulingPolicy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@link UserCode} with the policy API: what compiles, what is refused and on which line, how a call over its budget
 * or a throwing call fails, and that the loader is a second line behind the source check.
 */
class UserCodeTest {
    static final List<Class<?>> API = List.of(RequestView.class, Instances.class, ScaleView.class, Admission.class,
            RoutingPolicy.class, AdmissionPolicy.class, PriorityPolicy.class, SchedulingPolicy.class, AutoscalePolicy.class);

    @TempDir
    Path dir;

    private Path write(String name, String text) throws Exception {
        Path f = dir.resolve(name);
        Files.writeString(f, text);
        return f;
    }

    /** A router whose route method's body is {@code body}, after {@code before} (imports, fields) on line 2. */
    private static String router(String before, String body) {
        return "import io.servesim.policy.api.*;\n"                       // line 1
                + before + "\n"                                            // line 2
                + "public class R implements RoutingPolicy {\n"            // line 3
                + "  public int route(RequestView r, Instances in, long now) {\n" // line 4
                + "    " + body + "\n"                                     // line 5
                + "    return 0;\n"
                + "  }\n"
                + "}\n";
    }

    private ConfigException refused(String source) throws Exception {
        Path f = write("R.java", source);
        return assertThrows(ConfigException.class, () -> UserCode.load(f, RoutingPolicy.class, API, "policies.routing.params.source"));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            import java.io.File;|                                                   |2| java.io.File: not allowed in a policy (I/O)
                                |long t = System.currentTimeMillis();               |5| java.lang.System: not allowed in a policy (the clock
                                |new Thread(() -> { }).start();                     |5| java.lang.Thread: not allowed in a policy (threads)
                                |Object k = in.getClass();                          |5| java.lang.Object.getClass(): not allowed in a policy (reflection)
                                |Class<?> k = String.class;                         |5| java.lang.Class: not allowed in a policy (reflection)
            # var: the type javac infers for k (Class<? extends Instances>) has no position of its own; it is checked
            # before the initializer, so line 5 names it as Class<?> k would, where it had been named at line 0
                                |var k = in.getClass();                             |5| java.lang.Class: not allowed in a policy (reflection)
                                |double x = Math.random();                          |5| java.lang.Math.random(): not allowed in a policy (unseeded randomness
                                |java.util.Random g = new java.util.Random();       |5| new java.util.Random(): not allowed in a policy (unseeded randomness
                                |java.util.Collections.shuffle(new java.util.ArrayList<Integer>());|5| java.util.Collections.shuffle(java.util.List<?>): not allowed
                                |java.util.Arrays.parallelSort(new int[3]);         |5| java.util.Arrays.parallelSort(int[]): not allowed in a policy (threads)
                                |long n = java.util.List.of(1).stream().count();    |5| a value of type java.util.stream.Stream<java.lang.Integer>: not allowed in a policy (streams
                                |Object t = java.time.Instant.now();                |5| java.time.Instant: not allowed in a policy (the clock)
                                |Integer p = Integer.getInteger("x");               |5| java.lang.Integer.getInteger(java.lang.String): not allowed in a policy (the JVM's system properties)
                                |Runtime.getRuntime().gc();                         |5| java.lang.Runtime: not allowed in a policy (the JVM's state)
                                |synchronized (this) { }                            |5| synchronized: a policy runs on the simulation's one thread
                                |try { in.count(); } catch (Throwable e) { }        |5| catches java.lang.Throwable: a policy may catch exceptions, not errors
                                |Object m = new java.util.IdentityHashMap<String, Integer>();|5| java.util.IdentityHashMap: not allowed in a policy (identity hash order
                                |int h = new Object().hashCode();                   |5| java.lang.Object.hashCode(): not allowed in a policy (an identity hash, which differs between runs
                                |String s = this.toString();                        |5| java.lang.Object.toString(): not allowed in a policy (an identity hash in its text
                                |String s = String.format("%.1f", 0.5);             |5| java.lang.String.format(java.lang.String, java.lang.Object[]): not allowed in a policy (the machine's locale, a decimal comma on some
            enum E { A }                |int h = E.A.hashCode();                            |5| java.lang.Enum.hashCode(): not allowed in a policy (an identity hash, which differs between runs: use ordinal()
                                |java.util.concurrent.atomic.AtomicInteger a = null;|5| java.util.concurrent.atomic.AtomicInteger: not allowed in a policy (threads)
            class H { static int calls; }|                                          |2| static field calls: a policy keeps no static mutable state
            class H { static final java.util.List<Integer> L = new java.util.ArrayList<>(); }||2| static field L: a policy keeps no static mutable state
            import java.util.stream.*;|                                             |2| imports java.util.stream.*: not allowed in a policy (streams
            class G extends java.util.Random { }|                                   |2| extends java.util.Random, whose no-argument constructor not allowed in a policy (unseeded randomness
            """)
    void aReferenceBeyondTheApiAndValueTypesIsRefusedWithItsLine(String before, String body, int line, String message)
            throws Exception {
        ConfigException e = refused(router(before == null ? "" : before, body == null ? "" : body));
        assertEquals(1, e.problems().size(), e.getMessage());
        ConfigException.Problem p = e.problems().get(0);
        assertEquals("policies.routing.params.source", p.path());
        assertTrue(p.message().startsWith("R.java:" + line + ": " + message.strip()), p.message());
        assertTrue(p.message().endsWith("(" + dir.resolve("R.java") + ")"), "names the file's path: " + p.message());
    }

    @Test
    void everyOffendingLineIsListedOnceInOrder() throws Exception {
        ConfigException e = refused(router("import java.nio.file.Path;",
                "long t = System.nanoTime(); Object k = in.getClass();\n    new Thread(() -> { });"));
        // line 2: the import; line 5: System (its first reason only); line 6: Thread
        assertEquals(List.of(2L, 5L, 6L), e.problems().stream()
                .map(p -> Long.parseLong(p.message().split(":")[1])).toList(), e.getMessage());
    }

    @Test
    void whatAPolicyMayUseCompilesAndRuns() throws Exception {
        Path f = write("Fine.java", """
                import io.servesim.policy.api.*;
                import java.util.*;
                import java.util.function.*;

                public final class Fine implements RoutingPolicy {
                    private static final int LIMIT = 3;
                    private static final String NAME = "fine";
                    private enum Mode { LOAD, CACHE }
                    private record Pick(int position, double score) { }
                    static final class Oops extends RuntimeException { Oops(String m) { super(m); } }
                    private final Random random = new Random(42);
                    private final Map<String, Integer> seen = new TreeMap<>();
                    private final ToDoubleFunction<Integer> half = x -> x / 2.0;

                    @Override
                    public int route(RequestView r, Instances in, long now) {
                        List<Pick> picks = new ArrayList<>();
                        for (int i = 0; i < in.count(); i++) {
                            Mode m = i % 2 == 0 ? Mode.LOAD : Mode.CACHE;
                            double s = switch (m) { case LOAD -> -in.load(i); case CACHE -> in.cachedPrefixBlocks(i); };
                            picks.add(new Pick(i, s + half.applyAsDouble(LIMIT)));
                        }
                        picks.sort(Comparator.comparingDouble(Pick::score).reversed().thenComparingInt(Pick::position));
                        seen.merge(r.tenantId(), 1, Integer::sum);
                        try {
                            if (picks.isEmpty()) { throw new Oops(NAME + " has no pick " + String.format(Locale.ROOT, "%d", random.nextInt(9))); }
                        } catch (RuntimeException e) { return 0; }
                        int[] weights = {1, 2, 3};
                        if (weights.clone().length != 3 || "a,b".split(",").length != 2) { return 0; }
                        StringBuilder b = new StringBuilder().append(picks.get(0));
                        assert b.length() > 0;
                        return picks.get(0).position();
                    }
                }
                """);
        UserCode<RoutingPolicy> code = UserCode.load(f, RoutingPolicy.class, API, "policies.routing.params.source");
        assertEquals(java.util.Set.of("cachedPrefixBlocks", "count", "load"), code.calls(Instances.class));
        RoutingPolicy p = code.newInstance(new CallBudget(1_000_000_000L, "test"));
        // positions 0 and 2 score -load + 1.5, position 1 its cached blocks + 1.5: 3 cached blocks at 1 win
        assertEquals(1, p.route(Views.request("t", 100), Views.instances(new long[] {0, 0, 0}, new int[] {0, 3, 0}), 0));
    }

    @Test
    void compilerErrorsNameTheFileLineAndMessage() throws Exception {
        ConfigException e = refused(router("", "int x = undefinedName + 1;"));
        String m = e.problems().get(0).message();
        assertTrue(m.startsWith("R.java:5: cannot find symbol; symbol:   variable undefinedName"), m);
    }

    @Test
    void theClassMustImplementTheKindsInterfaceWithANoArgumentConstructor() throws Exception {
        Path f = write("A.java", "import io.servesim.policy.api.*;\npublic class A implements AdmissionPolicy {\n"
                + "  public Admission decide(RequestView r, long now) { return Admission.admit(); }\n}\n");
        ConfigException e = assertThrows(ConfigException.class, () -> UserCode.load(f, RoutingPolicy.class, API, "p"));
        assertTrue(e.problems().get(0).message().startsWith("A.java:2: A does not implement io.servesim.policy.api.RoutingPolicy:"
                + " a policy is one public class implementing"), e.getMessage());
        ConfigException noCtor = refused("import io.servesim.policy.api.*;\npublic class R implements RoutingPolicy {\n"
                + "  public R(int x) { }\n  public int route(RequestView r, Instances in, long now) { return 0; }\n}\n");
        assertTrue(noCtor.problems().get(0).message().contains("R has no public no-argument constructor"), noCtor.getMessage());
        ConfigException two = refused(router("", "") + "public class S { }\n");
        assertTrue(two.problems().get(0).message().startsWith("R.java: declares 2 public top-level types"), two.getMessage());
        ConfigException reserved = refused("package io.servesim.cluster;\n" + router("", ""));
        assertTrue(reserved.problems().get(0).message().startsWith("R.java:1: package io.servesim.cluster is reserved"),
                reserved.getMessage());
    }

    @Test
    void anUnreadableFileNamesItsPath() {
        Path missing = dir.resolve("Missing.java");
        ConfigException e = assertThrows(ConfigException.class, () -> UserCode.load(missing, RoutingPolicy.class, API, "p"));
        assertEquals("cannot read " + missing + ": no such file", e.problems().get(0).message());
    }

    @Test
    void aSourceCompilesOncePerJvm() throws Exception {
        Path f = write("Once.java", router("", "int once = 1;").replace(" R ", " Once "));
        UserCode.load(f, RoutingPolicy.class, API, "p");
        int compiled = UserCode.compiledSources();
        UserCode<RoutingPolicy> again = UserCode.load(f, RoutingPolicy.class, API, "p");
        assertEquals(compiled, UserCode.compiledSources());
        // each instance has classes of its own: two instances from one compilation
        assertTrue(again.newInstance(new CallBudget(1_000_000_000L, "a")).getClass()
                != again.newInstance(new CallBudget(1_000_000_000L, "b")).getClass());
    }

    /**
     * A call over its budget stops within a few watchdog ticks, by a loop or by recursion, naming the call and the line
     * it stopped at. The class is on one line (2), so whichever check stops it (the method's or the loop's) is there.
     */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            a loop       | while (in.count() > 0) { }
            a bare loop  | for (int i = 0; i >= 0; i += 0) in.count();
            recursion    | fib(80);
            """)
    void aCallOverItsBudgetFailsTheRunNamingTheCall(String what, String body) throws Exception {
        Path f = write("Slow.java", "import io.servesim.policy.api.*;\n"
                + "public class Slow implements RoutingPolicy { static long fib(int n) { return n < 2 ? n : fib(n - 1)"
                + " + fib(n - 2); } public int route(RequestView r, Instances in, long now) { " + body + " return 0; } }\n");
        RoutingPolicy p = UserCode.load(f, RoutingPolicy.class, API, "p")
                .newInstance(new CallBudget(20_000_000L, "policies.routing (Slow.java)"));
        CallBudget budget = budgetOf(p);
        long t0 = System.nanoTime();
        budget.enter();
        UserCodeException e;
        try {
            p.route(Views.request("t", 1), Views.instances(new long[] {0}, new int[] {0}), 0);
            throw new AssertionError("returned");
        } catch (Error stopped) {
            e = budget.failed("route", stopped, "Slow.java");
        }
        assertTrue(System.nanoTime() - t0 < 5_000_000_000L, "stopped within seconds");
        assertEquals("policies.routing (Slow.java): route ran longer than its call budget of 20 ms at Slow.java:2",
                e.getMessage());
    }

    @Test
    void aThrowingCallNamesTheExceptionAndLine() throws Exception {
        Path f = write("R.java", router("", "int x = 1 / (in.count() - in.count());"));
        RoutingPolicy p = UserCode.load(f, RoutingPolicy.class, API, "p").newInstance(new CallBudget(1_000_000_000L, "policies.routing (R.java)"));
        CallBudget budget = budgetOf(p);
        budget.enter();
        UserCodeException e;
        try {
            p.route(Views.request("t", 1), Views.instances(new long[] {0}, new int[] {0}), 0);
            throw new AssertionError("no exception");
        } catch (ArithmeticException t) {
            e = budget.failed("route", t, "R.java");
        }
        assertEquals("policies.routing (R.java): route threw ArithmeticException: / by zero at R.java:5", e.getMessage());
    }

    @Test
    void aConstructorThatNeverEndsFailsAtLoad() throws Exception {
        Path f = write("Ctor.java", "import io.servesim.policy.api.*;\npublic class Ctor implements RoutingPolicy {\n"
                + "  public Ctor() { while (true) { } }\n  public int route(RequestView r, Instances in, long now) { return 0; }\n}\n");
        // the constructor is not instrumented (its first statement may be this() or super()), its loop is: line 3
        UserCode<RoutingPolicy> code = UserCode.load(f, RoutingPolicy.class, API, "p");
        UserCodeException e = assertThrows(UserCodeException.class, () -> code.newInstance(new CallBudget(20_000_000L, "o")));
        assertEquals("o: its constructor ran longer than its call budget of 20 ms at Ctor.java:3", e.getMessage());
    }

    @Test
    void aStaticInitializerThatNeverEndsFailsAtLoadNamingIt() throws Exception {
        Path f = write("StaticInit.java", "import io.servesim.policy.api.*;\npublic class StaticInit implements RoutingPolicy {\n"
                + "  static final int X;\n  static { int x = 0; while (x >= 0) { x = (x + 1) % 7; } X = x; }\n"
                + "  public int route(RequestView r, Instances in, long now) { return 0; }\n}\n");
        // the budget's Error leaves <clinit> unwrapped (JLS 12.4.2): it is still the policy's failure, with its line
        UserCode<RoutingPolicy> code = UserCode.load(f, RoutingPolicy.class, API, "p");
        UserCodeException e = assertThrows(UserCodeException.class, () -> code.newInstance(new CallBudget(20_000_000L, "o")));
        assertEquals("o: its static initializer ran longer than its call budget of 20 ms at StaticInit.java:4", e.getMessage());
    }

    /** Compiled code that names a refused class cannot link to it, whatever its source check said. */
    @Test
    void theLoaderRefusesWhatTheSourceMayNotName() throws Exception {
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        MemoryFiles files = new MemoryFiles(javac.getStandardFileManager(null, Locale.ROOT, null), List.of());
        assertTrue(javac.getTask(null, files, null, null, null, List.of(MemoryFiles.source("Evil.java",
                "public class Evil { public static Object run() { return new java.io.File(\"/etc/passwd\"); } }"))).call());
        RestrictedLoader loader = new RestrictedLoader(files.classes(), java.util.Set.of(), getClass().getClassLoader(),
                new CallBudget(1_000_000_000L, "evil"));
        Class<?> evil = loader.loadClass("Evil");
        java.lang.reflect.InvocationTargetException e = assertThrows(java.lang.reflect.InvocationTargetException.class,
                () -> evil.getMethod("run").invoke(null));
        assertTrue(e.getCause() instanceof NoClassDefFoundError && e.getCause().getMessage().contains("java/io/File"),
                String.valueOf(e.getCause()));
        assertThrows(ClassNotFoundException.class, () -> loader.loadClass("java.lang.System"));
        assertEquals(Map.class, loader.loadClass("java.util.Map"));
    }

    /** The budget of a policy instance: the one its loader holds (as the instrumented checks find it). */
    private static CallBudget budgetOf(Object policy) {
        return ((RestrictedLoader) policy.getClass().getClassLoader()).budget();
    }
}
