package io.servesim.run;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.servesim.config.Aliases;
import io.servesim.config.Setting;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link Aliases}, which {@code config.Overrides} consults so an override replaces a setting whatever name the config
 * wrote it under, holds exactly the catalog's aliases ({@code config} is the leaf package and cannot read the catalog).
 */
class AliasesTest {
    @Test
    void theAliasTableIsTheCatalogs() {
        int declared = 0;
        for (Setting<?> s : SettingsCatalog.ALL) {
            assertEquals(s.aliases(), List.of(Aliases.of(s.key())), s.path());
            declared += s.aliases().isEmpty() ? 0 : 1;
        }
        assertEquals(declared, Aliases.keys().size(), "Aliases holds a key the catalog does not alias");
    }
}
