package io.servesim.run;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.servesim.config.Aliases;
import io.servesim.config.Setting;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * {@link Aliases}, which {@code config.Overrides} consults so an override replaces a setting whatever name the config
 * wrote it under, holds exactly the catalog's aliases ({@code config} is the leaf package and cannot read the catalog).
 */
class AliasesTest {
    @Test
    void theAliasTableIsTheCatalogs() {
        Set<String> aliased = new HashSet<>(); // a key may stand at two paths (deployment.tp, deployment.pd.<pool>.tp)
        for (Setting<?> s : SettingsCatalog.ALL) {
            assertEquals(s.aliases(), List.of(Aliases.of(s.key())), s.path());
            if (!s.aliases().isEmpty()) {
                aliased.add(s.key());
            }
        }
        assertEquals(aliased, Set.copyOf(Aliases.keys()), "Aliases holds a key the catalog does not alias");
    }
}
