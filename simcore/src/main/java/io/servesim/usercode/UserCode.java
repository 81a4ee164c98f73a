package io.servesim.usercode;

import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.util.JavacTask;
import com.sun.source.util.Trees;
import io.servesim.config.ConfigException;
import io.servesim.config.ReadFailure;
import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.ToolProvider;

/**
 * A class given as one Java source file, implementing an interface of an API, compiled at load time with the JDK's
 * compiler ({@code javax.tools}) in memory against that API alone, checked ({@link ReferenceCheck}), instrumented with
 * its call budget's checks ({@link Instrumentation}) and instantiated in a {@link RestrictedLoader} of its own.
 * A source compiles once per JVM (a sweep builds the same policy in many cells and runs): compilations are kept by
 * file name, text and interface, failures included; each instance then only defines the compiled classes anew.
 *
 * @param <T> the interface the code implements
 */
public final class UserCode<T> {
    private static final Map<Key, Compilation> COMPILED = new ConcurrentHashMap<>();
    private static final List<String> JAVAC_OPTIONS = List.of("-proc:none", "-g:source,lines", "-implicit:none",
            "-Xlint:none");

    private record Key(String fileName, String text, Class<?> iface, List<Class<?>> api) {
    }

    /** A source compiled, or the problems that stopped it (messages only: the config path is the caller's). */
    private record Compilation(List<String> problems, String mainClass, Map<String, byte[]> classes,
                               Map<String, Set<String>> apiCalls) {
    }

    private final Path file;
    private final Class<T> iface;
    private final Set<String> apiClasses;
    private final ClassLoader apiLoader;
    private final Compilation compiled;

    private UserCode(Path file, Class<T> iface, List<Class<?>> api, Compilation compiled) {
        this.file = file;
        this.iface = iface;
        this.apiClasses = api.stream().flatMap(c -> java.util.Arrays.stream(c.getNestMembers())).map(Class::getName)
                .collect(Collectors.toUnmodifiableSet());
        this.apiLoader = iface.getClassLoader();
        this.compiled = compiled;
    }

    /**
     * The code in {@code file}: one public class implementing {@code iface}, compiled against {@code api} (top-level
     * classes; {@code iface} among them, all loaded by one loader). Any problem (the file, the compiler's errors, a
     * refused reference) is a {@link ConfigException} at {@code configPath}, naming the file and line.
     */
    public static <T> UserCode<T> load(Path file, Class<T> iface, List<Class<?>> api, String configPath) {
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new ConfigException(configPath, "cannot read " + file + ": " + ReadFailure.problem(e, file).message());
        }
        String fileName = file.getFileName().toString();
        Compilation c = COMPILED.computeIfAbsent(new Key(fileName, text, iface, List.copyOf(api)),
                k -> compile(fileName, text, iface, api));
        if (!c.problems().isEmpty()) {
            String at = " (" + file + ")";
            throw new ConfigException(c.problems().stream().map(m -> new ConfigException.Problem(configPath, m + at)).toList());
        }
        return new UserCode<>(file, iface, api, c);
    }

    /** How many distinct sources this JVM compiled (each once, however many runs build it). */
    static int compiledSources() {
        return COMPILED.size();
    }

    /** The source file's name, as compiler messages and stack traces give it. */
    public String fileName() {
        return file.getFileName().toString();
    }

    /** The methods of API type {@code apiType} the source calls (by name). */
    public Set<String> calls(Class<?> apiType) {
        return compiled.apiCalls().getOrDefault(apiType.getName(), Set.of());
    }

    /**
     * A new instance, in a loader of its own, whose calls (its constructor's included) run under {@code budget};
     * a constructor that throws or overruns is a {@link UserCodeException}.
     */
    public T newInstance(CallBudget budget) {
        RestrictedLoader loader = new RestrictedLoader(compiled.classes(), apiClasses, apiLoader, budget);
        Object instance;
        budget.enter();
        Class<?> main;
        try {
            main = Class.forName(compiled.mainClass(), true, loader);
        } catch (ExceptionInInitializerError e) {
            throw budget.failed("its static initializer", e.getCause(), fileName());
        } catch (CallBudgetExceeded | VirtualMachineError e) {
            // an Error thrown by a static initializer reaches here as itself, not wrapped (JLS 12.4.2)
            throw budget.failed("its static initializer", e, fileName());
        } catch (ReflectiveOperationException | LinkageError e) {
            throw budget.failed("loading", e, fileName());
        }
        try {
            instance = main.getConstructor().newInstance();
        } catch (InvocationTargetException e) {
            throw budget.failed("its constructor", e.getCause(), fileName());
        } catch (ExceptionInInitializerError e) {
            throw budget.failed("a static initializer", e.getCause(), fileName());
        } catch (ReflectiveOperationException | LinkageError e) {
            throw budget.failed("loading", e, fileName());
        }
        budget.exit("its constructor");
        return iface.cast(instance);
    }

    private static Compilation compile(String fileName, String text, Class<?> iface, List<Class<?>> api) {
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        if (javac == null) {
            return failed(List.of("compiling " + fileName + " needs the JDK's compiler (module jdk.compiler), which the"
                    + " Java running servesim does not have: run servesim with a JDK, not a JRE"));
        }
        Set<String> apiPackages = api.stream().map(Class::getPackageName).collect(Collectors.toUnmodifiableSet());
        // pass 1: the source as written, against the API alone: compiler errors, then the reference check
        DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        JavacTask task = task(javac, diagnostics, new MemoryFiles(javac.getStandardFileManager(null, Locale.ROOT,
                StandardCharsets.UTF_8), api), fileName, text);
        CompilationUnitTree unit;
        ReferenceCheck.Result checked;
        try {
            unit = task.parse().iterator().next();
            task.analyze();
            List<String> errors = errors(diagnostics, fileName);
            if (!errors.isEmpty()) {
                return failed(errors);
            }
            checked = ReferenceCheck.check(task, unit, fileName, iface, apiPackages);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        if (!checked.problems().isEmpty()) {
            return failed(checked.problems());
        }
        // pass 2: with the budget checks, to class files
        String instrumented = Instrumentation.instrument(text, unit, Trees.instance(task).getSourcePositions());
        List<Class<?>> withBudget = new ArrayList<>(api);
        withBudget.add(CallBudget.class);
        DiagnosticCollector<JavaFileObject> diagnostics2 = new DiagnosticCollector<>();
        MemoryFiles out = new MemoryFiles(javac.getStandardFileManager(null, Locale.ROOT, StandardCharsets.UTF_8), withBudget);
        JavacTask generate = task(javac, diagnostics2, out, fileName, instrumented);
        try {
            generate.generate();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        List<String> errors = errors(diagnostics2, fileName);
        if (!errors.isEmpty()) {
            return failed(errors);
        }
        return new Compilation(List.of(), checked.mainClass(), Map.copyOf(out.classes()), checked.apiCalls());
    }

    private static JavacTask task(JavaCompiler javac, DiagnosticCollector<JavaFileObject> diagnostics, MemoryFiles files,
                                  String fileName, String text) {
        return (JavacTask) javac.getTask(null, files, diagnostics, JAVAC_OPTIONS, null,
                List.of(MemoryFiles.source(fileName, text)));
    }

    /** The compiler's errors, each {@code FILE:LINE: message} on one line. */
    private static List<String> errors(DiagnosticCollector<JavaFileObject> diagnostics, String fileName) {
        Set<String> out = new LinkedHashSet<>();
        for (Diagnostic<? extends JavaFileObject> d : diagnostics.getDiagnostics()) {
            if (d.getKind() == Diagnostic.Kind.ERROR) {
                String message = d.getMessage(Locale.ROOT).lines().map(String::strip).filter(l -> !l.isEmpty())
                        .collect(Collectors.joining("; "));
                out.add(fileName + (d.getLineNumber() > 0 ? ":" + d.getLineNumber() : "") + ": " + message);
            }
        }
        return List.copyOf(out);
    }

    private static Compilation failed(List<String> problems) {
        return new Compilation(List.copyOf(problems), null, Map.of(), Map.of());
    }
}
