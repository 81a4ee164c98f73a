package io.servesim.usercode;

import java.util.Map;
import java.util.Set;

/**
 * The class loader of one instance of user code: defines the code's own classes from their compiled bytes and links
 * them only to the API classes (the loader's API classes, so an instance is one of the API's interfaces), the
 * {@link CallBudget} its checks read, and the JDK classes {@link Rules#linkAllowed} allows; any other name is not
 * found. A second line behind {@link ReferenceCheck}: compiled code cannot reach what its source could not name. Each
 * instance gets its own loader, so nothing of one instance's classes (their budget) is shared with another.
 */
final class RestrictedLoader extends ClassLoader {
    static {
        registerAsParallelCapable();
    }

    private final Map<String, byte[]> classes;
    private final Set<String> apiClasses;
    private final ClassLoader apiLoader;
    private final CallBudget budget;

    /**
     * @param classes    the code's classes, by binary name
     * @param apiClasses the binary names of the API classes it may link to, loaded by {@code apiLoader}
     */
    RestrictedLoader(Map<String, byte[]> classes, Set<String> apiClasses, ClassLoader apiLoader, CallBudget budget) {
        super("servesim-user-code", null);
        this.classes = classes;
        this.apiClasses = apiClasses;
        this.apiLoader = apiLoader;
        this.budget = budget;
    }

    /** The budget this instance's calls run under. */
    CallBudget budget() {
        return budget;
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
        synchronized (getClassLoadingLock(name)) {
            Class<?> c = findLoadedClass(name);
            if (c == null) {
                byte[] bytes = classes.get(name);
                if (bytes != null) {
                    c = defineClass(name, bytes, 0, bytes.length);
                } else if (apiClasses.contains(name) || name.equals(CallBudget.class.getName())) {
                    c = apiLoader.loadClass(name);
                } else if (Rules.linkAllowed(name)) {
                    c = ClassLoader.getPlatformClassLoader().loadClass(name);
                } else {
                    throw new ClassNotFoundException(name + " is not available to user code");
                }
            }
            if (resolve) {
                resolveClass(c);
            }
            return c;
        }
    }
}
