package io.servesim.evolve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.servesim.config.ConfigException;
import io.servesim.config.StrictJson;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** An evolve file binds strictly: every problem at its path in the file, with the valid choices or range. */
class EvolveFileTest {
    private static EvolveSpec bind(Path dir, String text) throws Exception {
        Path f = Files.writeString(dir.resolve("e.yaml"), text);
        return EvolveFile.bind((ObjectNode) StrictJson.readMapping(f), dir);
    }

    private static String problems(Path dir, String text) {
        return assertThrows(ConfigException.class, () -> bind(dir, text)).getMessage();
    }

    @Test
    void bindsTheSmallSearch(@TempDir Path tmp) throws Exception {
        EvolveSpec s = bind(tmp, TestSearches.small("ok", 2, 1));
        assertEquals(2, s.params().size());
        assertEquals("routing_cache_affinity", s.params().get(0).column());
        assertEquals(3, s.population());
        assertEquals("ttft_p99_ms:0.5,e2e_p99_ms:0.5", s.base().get("fitness_weights").asText());
    }

    @Test
    void namesEachBadKeyAtItsPath(@TempDir Path tmp) {
        String base = TestSearches.small("bad", 2, 1);
        String m = problems(tmp, base.replace("routing.load: {min: 0, max: 4,", "routing.load: {min: 0, max: 2000,")
                .replace("routing.cache_affinity:", "routing.cache_afinity:").replace("population: 3", "population: 1")
                .replace("ttft_p99_ms:0.5", "p42:0.5").replace("routing.load: {min: 0, max: 2000, start: 1, sigma: 1}",
                        "routing.load: {min: 0, max: 2000, start: 1, sigma: 1}\n  routing.queue_depth: {min: 0, max: 2,"
                        + " sigma: 3}"));
        assertTrue(m.contains("search.routing.load.max: must be a number within [0, 1000]"), m);
        assertTrue(m.contains("search.routing.cache_afinity: routing policy weighted-scoring has no parameter"
                + " 'cache_afinity'; its numeric parameters: cache_affinity, load, queue_depth, kv_utilization"), m);
        assertTrue(m.contains("cmaes.population"), m);
        assertTrue(m.contains("search.routing.queue_depth.sigma: must be a number in (0, 2] (max - min: CMA-ES's initial"
                + " step along this parameter), got 3"), m);
        assertTrue(m.contains("fitness_weights: unknown fitness metric 'p42'"), m);
    }

    @Test
    void refusesASearchedParameterTheTemplateAlsoSetsAndAMissingSigma(@TempDir Path tmp) {
        String m = problems(tmp, TestSearches.small("bad", 2, 1).replace("params: {kv_utilization: 0}",
                "params: {load: 2}").replace("routing.cache_affinity: {min: 0, max: 4, start: 1, sigma: 1}",
                "routing.cache_affinity: {min: 0, max: 4}"));
        assertTrue(m.contains("search.routing.load: policies.routing.params.load is set in the template too"), m);
        assertTrue(m.contains("search.routing.cache_affinity.sigma: required: a number in (0, 4]"), m);
    }

    @Test
    void refusesAnUnsearchableParameterAndAnUnknownKind(@TempDir Path tmp) {
        String m = problems(tmp, TestSearches.small("bad", 2, 1).replace("policies: {routing: {name: weighted-scoring,"
                + " params: {kv_utilization: 0}}}", "policies: {routing: {name: weighted-scoring}, admision: {name: x},"
                + " admission: {name: token-bucket, params: {capacity: 10, refill_per_s: 5}}}\n")
                .replace("routing.load:", "admission.cost:"));
        assertTrue(m.contains("policies.admision: unknown policy kind; valid: admission, priority, routing, scheduler,"
                + " autoscale"), m);
        assertTrue(m.contains("search.admission.cost: 'cost' is ") && m.contains("only numbers, integers and durations are searched"), m);
    }
}
