package io.servesim.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import org.junit.jupiter.api.Test;

/** The sweep's compiler directive is one this JVM (HotSpot 17, which the build requires) accepts. */
class SetupCodeJitTest {
    @Test
    void theDirectiveParsesAndIsAdded() {
        assertEquals("1 compiler directives added", SetupCodeJit.add(SetupCodeJit.DIRECTIVES));
    }

    @Test
    void aMalformedDirectiveIsRefusedNotAdded() {
        String answer = SetupCodeJit.add("[{ match: [\"org/*.*\"], c2: { Exclude: maybe } }]");
        assertNotNull(answer);
        assertNotEquals("1 compiler directives added", answer);
    }
}
