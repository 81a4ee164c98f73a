package io.servesim.sweep;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import javax.management.JMException;
import javax.management.ObjectName;

/**
 * Keeps HotSpot's optimizing compiler (C2) for the simulation during a sweep. A sweep process runs
 * a lot of library code once, while it builds, translates and tears down the pipeline: Beam's SDK
 * and runners (with their vendored Guava and protobuf), ByteBuddy generating DoFn invokers, Hadoop's
 * configuration and its XML parser, SnakeYAML and picocli, and the JDK's own ASM, Java
 * serialization and reflection that these drive (Beam's options factory sorts every options
 * method by its generic signature string, {@code Method.toGenericString}, thousands of times: C2
 * spent 0.17 s on those JDK methods while the sweep started; excluding them cut the quickstart
 * sweep's CPU by 0.14-0.18 s over 12 alternating runs). Enough of it gets hot to queue for C2, and on a 2-core machine
 * the C2 thread then compiles it while the cells' kernel code waits in the same queue. Measured on
 * the quickstart sweep (12 cells; {@code -XX:+CITime}): 7.0 s of C2 compilation against 2.5 s for
 * the serial loop over the same cells. {@link #install} excludes those packages from C2 with a
 * HotSpot compiler directive (they stay compiled by C1); none of them runs per simulated event or
 * per output row. With it: 5.7-6.0 s of C2, 11.3 s of process CPU instead of 13.8 s, and a median
 * wall time of 5.54 s against 5.83 s before this and the sweep's own Parquet sink (8 alternating runs each).
 *
 * <p>The directive is added through the JVM's {@code compilerDirectivesAdd} diagnostic command
 * (what {@code jcmd <pid> Compiler.directives_add} runs), once per JVM. A JVM without that command
 * (not HotSpot) just keeps compiling as it would: the directive changes speed, never results.
 */
final class SetupCodeJit {
    /** HotSpot compiler-directive syntax: class patterns with a trailing wildcard, any method. */
    static final String DIRECTIVES = """
            [{ match: ["org/apache/beam/*.*", "net/bytebuddy/*.*", "org/apache/hadoop/*.*", "com/ctc/*.*",
                       "org/codehaus/*.*", "org/yaml/*.*", "picocli/*.*", "jdk/internal/org/objectweb/*.*",
                       "java/io/ObjectOutputStream*.*", "java/io/ObjectInputStream*.*", "java/io/ObjectStreamClass*.*",
                       "java/lang/reflect/*.*"],
               c2: { Exclude: true } }]
            """;

    private static boolean installed;

    private SetupCodeJit() {
    }

    /** Adds {@link #DIRECTIVES} unless this JVM has them already. */
    static synchronized void install() {
        if (!installed) {
            installed = true;
            add(DIRECTIVES);
        }
    }

    /**
     * Adds compiler {@code directives} to this JVM; returns the diagnostic command's answer ("1
     * compiler directives added", or why the text was refused), or null where the JVM has no such
     * command.
     */
    static String add(String directives) {
        Path file = null;
        try {
            file = Files.createTempFile("servesim-jit-", ".json");
            // removed below; this covers a JVM that exits while the command runs (a sweep file that
            // does not exist ends the process before this start-up thread is done)
            file.toFile().deleteOnExit();
            Files.writeString(file, directives);
            Object answer = ManagementFactory.getPlatformMBeanServer().invoke(
                    new ObjectName("com.sun.management:type=DiagnosticCommand"), "compilerDirectivesAdd",
                    new Object[] {new String[] {file.toString()}}, new String[] {String[].class.getName()});
            return String.valueOf(answer).strip();
        } catch (IOException | JMException | RuntimeException e) {
            return null;
        } finally {
            if (file != null) {
                try {
                    Files.deleteIfExists(file);
                } catch (IOException e) {
                    // deleteOnExit above still removes it
                }
            }
        }
    }
}
