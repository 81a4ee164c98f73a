package io.servesim.evolve;

import io.servesim.sweep.GridDifference;
import io.servesim.sweep.OutputLayout;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

/**
 * A search's output folder as {@code OutputDir} checks it (the rules a sweep's and a plan's folders follow):
 * {@code rounds/} (each generation's sweep, then the baselines' and the held-out one), {@code generations/} and
 * {@code comparison/} are its data; {@code _EVOLVE.yaml} its definition, identified by the evolve id;
 * {@code best-policy.yaml}, {@code summary.txt}, {@code report.html} and {@code _SUMMARY.json} names it writes; its
 * staging folder holds all of them while it runs, a round counting as finished once its own {@code _SUCCESS} is written.
 */
final class EvolveLayout implements OutputLayout {
    static final String ROUNDS = "rounds";
    static final List<String> DATA = List.of(ROUNDS, EvolveOutputs.GENERATIONS, EvolveOutputs.COMPARISON);
    static final Set<String> NAMED = Set.of(EvolveOutputs.SUMMARY_JSON, EvolveOutputs.BEST_POLICY,
            EvolveOutputs.SUMMARY_TEXT, EvolveOutputs.REPORT);

    private final EvolveSpec spec;
    private final String id;

    EvolveLayout(EvolveSpec spec) {
        this.spec = spec;
        this.id = EvolveDefinition.of(spec).path("evolve_id").asText();
    }

    @Override
    public String noun() {
        return "search";
    }

    @Override
    public String identityNoun() {
        return "definition";
    }

    @Override
    public String definitionFile() {
        return EvolveDefinition.FILE;
    }

    @Override
    public Set<String> reservedFiles() {
        return NAMED;
    }

    @Override
    public List<String> dataFolders() {
        return DATA;
    }

    @Override
    public boolean isStagingFile(String rel) {
        String top = rel.contains("/") ? rel.substring(0, rel.indexOf('/')) : rel;
        return top.equals(EvolveDefinition.FILE) || NAMED.contains(top) || (rel.contains("/") && DATA.contains(top));
    }

    @Override
    public Optional<Set<String>> ids(Path folder) {
        return EvolveDefinition.id(folder).map(Set::of);
    }

    @Override
    public Set<String> idsNow() {
        return Set.of(id);
    }

    @Override
    public int finished(Path staging) {
        Path rounds = staging.resolve(ROUNDS);
        if (!Files.isDirectory(rounds)) {
            return 0;
        }
        try (Stream<Path> s = Files.list(rounds)) {
            return (int) s.filter(r -> Files.isRegularFile(r.resolve("_SUCCESS"))).count();
        } catch (IOException e) {
            return 0;
        }
    }

    @Override
    public String progress(Path staging, Set<String> stagedIds) {
        return finished(staging) + " rounds finished";
    }

    @Override
    public String difference(Path staging) {
        return EvolveDefinition.read(staging).map(then -> GridDifference.describe(then, EvolveDefinition.of(spec),
                List.of("base", "fitness_weights", "policies", "search", "cmaes", "train", "held_out", "baselines"),
                "the evolve file is the same, but a file its base config reads changed since")).orElse("unreadable "
                + EvolveDefinition.FILE);
    }

    @Override
    public void checkResume(Path staging) {
        // a search's definition is the whole of what its rounds depend on: the same id is enough
    }
}
