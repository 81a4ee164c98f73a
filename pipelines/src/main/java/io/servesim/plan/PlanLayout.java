package io.servesim.plan;

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
 * A plan's output folder as {@code OutputDir} checks it (the rules a sweep's folder follows): {@code rounds/} (each
 * round a sweep's output folder), {@code candidates/} and {@code frontier/} are its data; {@code _PLAN.yaml} its
 * definition, identified by the plan id; {@code recommended.yaml}, {@code vllm-serve.txt}, {@code summary.txt},
 * {@code report.html} and {@code _SUMMARY.json} names it writes; its staging folder holds all of them while it runs,
 * a round counting as finished once its own {@code _SUCCESS} is written.
 */
final class PlanLayout implements OutputLayout {
    static final String ROUNDS = "rounds";
    static final List<String> DATA = List.of(ROUNDS, PlanOutputs.CANDIDATES, PlanOutputs.FRONTIER);
    static final Set<String> NAMED = Set.of(PlanOutputs.SUMMARY_JSON, PlanOutputs.RECOMMENDED, PlanOutputs.VLLM,
            PlanOutputs.SUMMARY_TEXT, PlanOutputs.REPORT);

    private final PlanSpec spec;
    private final String id;

    PlanLayout(PlanSpec spec) {
        this.spec = spec;
        this.id = PlanDefinition.of(spec).path("plan_id").asText();
    }

    @Override
    public String noun() {
        return "plan";
    }

    @Override
    public String identityNoun() {
        return "definition";
    }

    @Override
    public String definitionFile() {
        return PlanDefinition.FILE;
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
        return top.equals(PlanDefinition.FILE) || NAMED.contains(top) || (rel.contains("/") && DATA.contains(top));
    }

    @Override
    public Optional<Set<String>> ids(Path folder) {
        return PlanDefinition.id(folder).map(Set::of);
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
        return PlanDefinition.read(staging).map(then -> GridDifference.describe(then, PlanDefinition.of(spec),
                List.of("base", "target_rate_rps", "start_rps", "slo", "candidates", "search", "seeds"),
                "the plan file is the same, but a file its base config reads changed since")).orElse("unreadable "
                + PlanDefinition.FILE);
    }

    @Override
    public void checkResume(Path staging) {
        // a plan's definition is the whole of what its rounds depend on: the same id is enough
    }
}
