package io.servesim.usercode;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.tools.FileObject;
import javax.tools.ForwardingJavaFileManager;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.StandardLocation;

/**
 * The compiler's files, all in memory: one source, a class path of exactly the classes user code may compile against
 * (the API, read as class files from the loader that loaded them, so it works from a shaded jar or a Flink task's
 * class loader alike), and the class files written. The JDK's own classes come from the standard file manager.
 */
final class MemoryFiles extends ForwardingJavaFileManager<StandardJavaFileManager> {
    private final Map<String, List<JavaFileObject>> classPath = new LinkedHashMap<>();
    private final Map<String, ByteArrayOutputStream> written = new LinkedHashMap<>();

    /** @param classPath the classes on the class path, each with the classes nested in it */
    MemoryFiles(StandardJavaFileManager standard, List<Class<?>> classPath) {
        super(standard);
        Set<Class<?>> all = new java.util.LinkedHashSet<>();
        for (Class<?> c : classPath) {
            all.addAll(List.of(c.getNestMembers()));
        }
        for (Class<?> c : all) {
            this.classPath.computeIfAbsent(c.getPackageName(), k -> new ArrayList<>()).add(new ClassFile(c));
        }
    }

    /** The source as a file object; any public class name fits it (javac's file-name rule does not apply). */
    static JavaFileObject source(String fileName, String text) {
        return new SimpleJavaFileObject(URI.create("string:///" + fileName), JavaFileObject.Kind.SOURCE) {
            @Override
            public CharSequence getCharContent(boolean ignoreEncodingErrors) {
                return text;
            }

            @Override
            public boolean isNameCompatible(String simpleName, Kind kind) {
                return true;
            }
        };
    }

    /** The class files written, by binary name. */
    Map<String, byte[]> classes() {
        Map<String, byte[]> out = new LinkedHashMap<>();
        written.forEach((name, bytes) -> out.put(name, bytes.toByteArray()));
        return out;
    }

    @Override
    public Iterable<JavaFileObject> list(Location location, String packageName, Set<JavaFileObject.Kind> kinds,
                                         boolean recurse) throws IOException {
        if (location == StandardLocation.CLASS_PATH) {
            return kinds.contains(JavaFileObject.Kind.CLASS) ? classPath.getOrDefault(packageName, List.of()) : List.of();
        }
        return super.list(location, packageName, kinds, recurse);
    }

    @Override
    public String inferBinaryName(Location location, JavaFileObject file) {
        return file instanceof ClassFile c ? c.binaryName : super.inferBinaryName(location, file);
    }

    @Override
    public boolean hasLocation(Location location) {
        return location == StandardLocation.CLASS_PATH || super.hasLocation(location);
    }

    @Override
    public JavaFileObject getJavaFileForOutput(Location location, String className, JavaFileObject.Kind kind,
                                               FileObject sibling) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        written.put(className, bytes);
        return new SimpleJavaFileObject(URI.create("mem:///" + className.replace('.', '/') + kind.extension), kind) {
            @Override
            public OutputStream openOutputStream() {
                return bytes;
            }
        };
    }

    /** A class file of the class path, read from the loader of its class. */
    private static final class ClassFile extends SimpleJavaFileObject {
        private final Class<?> type;
        private final String binaryName;

        ClassFile(Class<?> type) {
            super(URI.create("class:///" + type.getName().replace('.', '/') + ".class"), Kind.CLASS);
            this.type = type;
            this.binaryName = type.getName();
        }

        @Override
        public InputStream openInputStream() {
            String resource = "/" + binaryName.replace('.', '/') + ".class";
            try (InputStream in = type.getResourceAsStream(resource)) {
                if (in == null) {
                    throw new IllegalStateException("class file " + resource + " is not on the class path");
                }
                return new ByteArrayInputStream(in.readAllBytes());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        @Override
        public boolean isNameCompatible(String simpleName, Kind kind) {
            return kind == Kind.CLASS && binaryName.substring(binaryName.lastIndexOf('.') + 1).equals(simpleName);
        }
    }
}
