package io.servesim.cli;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code scripts/compile-units}: the hot methods the launchers keep out of their callers' compiled
 * code ({@code -XX:CompileCommand=dontinline}). HotSpot ignores a pattern that matches no method, so a
 * renamed method would silently lose its flag: every line must name a method on the application's
 * class path, and both launchers must read the file.
 */
class CompileUnitsTest {
    private static final Path SCRIPTS = Path.of("..", "scripts");

    @Test
    void everyUnitNamesAnExistingMethod() throws IOException {
        // read as the launchers read it: a comment runs from '#' to the line's end, blanks are dropped
        List<String> units = Files.readAllLines(SCRIPTS.resolve("compile-units")).stream()
                .map(l -> l.replaceAll("#.*", "").replaceAll("\\s", "")).filter(l -> !l.isEmpty()).toList();
        assertFalse(units.isEmpty(), "no compile units listed");
        for (String unit : units) {
            String[] parts = unit.split("::");
            if (parts.length != 2) {
                fail("not Class::method: " + unit);
            }
            Class<?> type;
            try {
                type = Class.forName(parts[0], false, getClass().getClassLoader());
            } catch (ClassNotFoundException e) {
                throw new AssertionError(unit + ": no class " + parts[0], e);
            }
            String method = parts[1];
            // HotSpot's pattern syntax: a trailing '*' matches every name with that prefix
            boolean prefix = method.endsWith("*");
            String name = prefix ? method.substring(0, method.length() - 1) : method;
            assertTrue(Arrays.stream(type.getDeclaredMethods())
                            .anyMatch(m -> prefix ? m.getName().startsWith(name) : m.getName().equals(name)),
                    unit + ": " + parts[0] + " declares no method " + method);
        }
    }

    @Test
    void bothLaunchersReadTheList() throws IOException {
        for (String script : List.of("servesim", "flink-cluster")) {
            String text = Files.readString(SCRIPTS.resolve(script));
            assertTrue(text.contains("scripts/compile-units\"") && text.contains("CompileCommand=dontinline,$unit"),
                    "scripts/" + script + " does not pass scripts/compile-units to the JVM");
        }
    }
}
